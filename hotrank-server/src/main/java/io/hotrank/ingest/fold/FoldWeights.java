package io.hotrank.ingest.fold;

import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What each event of a fold weighed, as {@code hr_fold.weights} keeps it beside the fold's record:
 * the sources keep the events, not what the fold made of them, and a window board replayed from the
 * log must add the weights the counters took when the fold ran (an actor flagged or aged since
 * would weigh otherwise now). One token per event, in the order the source reads the events back:
 * the trusted thousandths it added, {@code ~} when it moved no raw counter, and {@code *n} for a
 * run of {@code n} equal tokens: {@code 1000*37,200*4,0,-1000~}.
 */
public final class FoldWeights {

  private FoldWeights() {}

  /** The weights of {@code events}, in their order. */
  public static String encode(List<FoldedEvent> events) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < events.size(); ) {
      String token = token(events.get(i));
      int run = 1;
      while (i + run < events.size() && token(events.get(i + run)).equals(token)) {
        run++;
      }
      text.append(text.isEmpty() ? "" : ",").append(token);
      if (run > 1) {
        text.append('*').append(run);
      }
      i += run;
    }
    return text.toString();
  }

  private static String token(FoldedEvent e) {
    return e.raw() ? Long.toString(e.trusted()) : e.trusted() + "~";
  }

  /**
   * The events of a fold with what each weighed; each at full weight when {@code weights} is null
   * (folded before window boards weighed by trust); null when they do not match (not as many, or
   * the text is not weights).
   */
  public static @Nullable List<FoldedEvent> decode(
      @Nullable String weights, List<LoggedEvent> events) {
    if (weights == null) {
      return events.stream().map(FoldedEvent::atFullWeight).toList();
    }
    try {
      return decodeText(weights, events);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static @Nullable List<FoldedEvent> decodeText(String weights, List<LoggedEvent> events) {
    List<FoldedEvent> folded = new ArrayList<>(events.size());
    if (!weights.isEmpty()) {
      for (String token : weights.split(",")) {
        int star = token.indexOf('*');
        int run = star < 0 ? 1 : Integer.parseInt(token.substring(star + 1));
        String value = star < 0 ? token : token.substring(0, star);
        boolean raw = !value.endsWith("~");
        long trusted = Long.parseLong(raw ? value : value.substring(0, value.length() - 1));
        for (int k = 0; k < run; k++) {
          if (folded.size() == events.size()) {
            return null;
          }
          folded.add(new FoldedEvent(events.get(folded.size()), raw, trusted));
        }
      }
    }
    return folded.size() == events.size() ? folded : null;
  }
}
