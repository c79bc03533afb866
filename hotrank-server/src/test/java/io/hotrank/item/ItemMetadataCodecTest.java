package io.hotrank.item;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What Redis keeps of an item's metadata, and what it read before items had attributes. */
class ItemMetadataCodecTest {

  private final ItemMetadataCodec codec = new ItemMetadataCodec();

  @Test
  void anItemWithAttributes_roundTrips_withItsKeysSorted() {
    ItemStore.Stored item =
        new ItemStore.Stored(
            "news",
            7,
            3,
            "title",
            List.of("a"),
            Map.of("lang", "en", "community", "java"),
            Instant.ofEpochMilli(1_000),
            Instant.ofEpochMilli(2_000),
            4,
            false);
    String encoded = codec.encode(item);
    assertThat(encoded).contains("\"attributes\":{\"community\":\"java\",\"lang\":\"en\"}");
    assertThat(codec.decode(encoded)).isEqualTo(item);
    assertThat(codec.decode(encoded).attributes().keySet()).containsExactly("community", "lang");
  }

  @Test
  void anEntryWrittenBeforeItemsHadAttributes_readsAsNone() {
    ItemStore.Stored item =
        codec.decode(
            "{\"biz\":\"news\",\"id\":7,\"authorId\":3,\"title\":\"t\",\"tags\":[],"
                + "\"createdAt\":1000,\"updatedAt\":2000,\"version\":4}");
    assertThat(item.attributes()).isEmpty();
    assertThat(item.version()).isEqualTo(4);
  }
}
