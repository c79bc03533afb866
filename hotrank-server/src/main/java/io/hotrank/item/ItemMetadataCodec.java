package io.hotrank.item;

import io.hotrank.cache.RedisVersionedTier;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;

/** An item's metadata as Redis keeps it: JSON. */
final class ItemMetadataCodec implements RedisVersionedTier.Codec<ItemStore.Stored> {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** What Redis keeps of an item's metadata, as JSON. */
  private record Metadata(
      String biz,
      long id,
      long authorId,
      String title,
      List<String> tags,
      long createdAt,
      long updatedAt,
      long version) {}

  @Override
  public String encode(ItemStore.Stored s) {
    return JSON.writeValueAsString(
        new Metadata(
            s.biz(),
            s.id(),
            s.authorId(),
            s.title(),
            s.tags(),
            s.createdAt().toEpochMilli(),
            s.updatedAt().toEpochMilli(),
            s.version()));
  }

  @Override
  public ItemStore.Stored decode(String text) {
    Metadata m = JSON.readValue(text, Metadata.class);
    return new ItemStore.Stored(
        m.biz(),
        m.id(),
        m.authorId(),
        m.title(),
        List.copyOf(m.tags()),
        Instant.ofEpochMilli(m.createdAt()),
        Instant.ofEpochMilli(m.updatedAt()),
        m.version(),
        false);
  }
}
