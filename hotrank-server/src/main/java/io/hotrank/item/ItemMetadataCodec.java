package io.hotrank.item;

import io.hotrank.cache.RedisVersionedTier;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * An item's metadata as Redis keeps it: JSON. An entry written before items had attributes has no
 * {@code attributes} member and reads as none (no item had any then); an instance of that time
 * ignores the member it does not know.
 */
final class ItemMetadataCodec implements RedisVersionedTier.Codec<ItemStore.Stored> {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** What Redis keeps of an item's metadata, as JSON. */
  private record Metadata(
      String biz,
      long id,
      long authorId,
      String title,
      List<String> tags,
      @Nullable Map<String, String> attributes,
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
            s.attributes(),
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
        m.attributes() == null ? Map.of() : m.attributes(),
        Instant.ofEpochMilli(m.createdAt()),
        Instant.ofEpochMilli(m.updatedAt()),
        m.version(),
        false);
  }
}
