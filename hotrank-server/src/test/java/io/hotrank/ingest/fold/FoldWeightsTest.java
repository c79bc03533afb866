package io.hotrank.ingest.fold;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.event.EventType;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FoldWeightsTest {

  private static LoggedEvent event(long seq, EventType type) {
    return new LoggedEvent(seq, "article", seq % 7, type, seq % 5, 1_000 + seq);
  }

  @Test
  void runsOfEqualWeights_areWrittenOnce_andReadBackEventByEvent() {
    List<FoldedEvent> folded = new ArrayList<>();
    for (long seq = 1; seq <= 37; seq++) {
      folded.add(new FoldedEvent(event(seq, EventType.LIKE), true, 1000));
    }
    folded.add(new FoldedEvent(event(38, EventType.VIEW), true, 0));
    folded.add(new FoldedEvent(event(39, EventType.UNLIKE), false, -200));
    folded.add(new FoldedEvent(event(40, EventType.UNLIKE), false, -200));
    folded.add(new FoldedEvent(event(41, EventType.UNLIKE), true, -200));

    String text = FoldWeights.encode(folded);

    assertThat(text).isEqualTo("1000*37,0,-200~*2,-200");
    assertThat(FoldWeights.decode(text, folded.stream().map(FoldedEvent::event).toList()))
        .isEqualTo(folded);
    assertThat(FoldWeights.encode(List.of())).isEmpty();
    assertThat(FoldWeights.decode("", List.of())).isEmpty();
  }

  @Test
  void randomFolds_readBackAsWritten() {
    Random random = new Random(11);
    EventType[] types = EventType.values();
    for (int round = 0; round < 200; round++) {
      List<FoldedEvent> folded = new ArrayList<>();
      for (int i = random.nextInt(50); i > 0; i--) {
        long trusted = (random.nextInt(4) - 1) * (random.nextBoolean() ? 1000 : 60);
        folded.add(
            new FoldedEvent(
                event(i, types[random.nextInt(types.length)]), random.nextInt(4) > 0, trusted));
      }
      List<LoggedEvent> events = folded.stream().map(FoldedEvent::event).toList();
      assertThat(FoldWeights.decode(FoldWeights.encode(folded), events)).isEqualTo(folded);
    }
  }

  @Test
  void aFoldWithoutWeights_isReadAtFullWeight_andWeightsThatDoNotMatch_areNot() {
    List<LoggedEvent> events = List.of(event(1, EventType.VIEW), event(2, EventType.UNCOLLECT));

    assertThat(FoldWeights.decode(null, events))
        .containsExactly(
            new FoldedEvent(events.get(0), true, 1000),
            new FoldedEvent(events.get(1), true, -1000));
    assertThat(FoldWeights.decode("1000", events)).isNull();
    assertThat(FoldWeights.decode("1000*3", events)).isNull();
    assertThat(FoldWeights.decode("1000,x~", events)).isNull();
    assertThat(FoldWeights.decode("1000*", events)).isNull();
  }
}
