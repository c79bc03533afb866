package io.hotrank.ingest.fold;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.core.score.Interactions;
import io.hotrank.event.EventType;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.item.CounterPages;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ActorRetractionRecordTest {

  private static CounterPages.CounterRow row(long id) {
    return new CounterPages.CounterRow(id, 0, Interactions.NONE, Interactions.NONE);
  }

  @Test
  void theRecord_namesEachBizAndItsItems_andReadsBackAsThem() {
    Map<String, Map<Long, CounterPages.CounterRow>> locked = new TreeMap<>();
    locked.put("article", Map.of(7L, row(7), 1L, row(1)));
    locked.put("gone", Map.of()); // its items were deleted: not in the record
    locked.put("video", Map.of(3L, row(3)));

    List<FoldedEvent> taken =
        List.of(
            new FoldedEvent(
                new LoggedEvent(0, "article", 1, EventType.UNLIKE, 42, 100), false, -200),
            new FoldedEvent(
                new LoggedEvent(0, "article", 7, EventType.UNCOLLECT, 42, 200), false, -1000),
            new FoldedEvent(
                new LoggedEvent(0, "video", 3, EventType.UNLIKE, 42, 300), false, -500));

    String record = ActorRetraction.record(42, locked, taken);

    assertThat(record).isEqualTo("42|article:1,7;video:3|article:l1@100,c7@200;video:l3@300");
    assertThat(new ActorRetraction.Reader().itemsOf(record))
        .containsExactly(
            new Fold.ItemKey("article", 1),
            new Fold.ItemKey("article", 7),
            new Fold.ItemKey("video", 3));
    assertThat(new ActorRetraction.Reader().eventsOf(record))
        .containsExactlyElementsOf(taken.stream().map(FoldedEvent::event).toList());
    // A record written before retractions listed what they took back: its items, no events.
    assertThat(new ActorRetraction.Reader().itemsOf("42|article:1,7;video:3")).hasSize(3);
    assertThat(new ActorRetraction.Reader().eventsOf("42|article:1,7;video:3")).isEmpty();
    assertThat(ActorRetraction.items("42|")).isEmpty();
  }
}
