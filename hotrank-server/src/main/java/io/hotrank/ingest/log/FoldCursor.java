package io.hotrank.ingest.log;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where the folder stands in the event log: every seq at or below {@code position} has been folded,
 * except those of the open {@code gaps}.
 *
 * <p>Why gaps: a row's seq is allocated when its INSERT runs, not when it commits, so with
 * concurrent appends a row with a lower seq can become visible after the folder has read past it. A
 * folder that only kept "the highest seq folded" would skip that row for good. So each fold records
 * the seqs it expected but did not see, and the next folds read them again; a seq that never shows
 * up (its INSERT rolled back, or the sequence skipped it) is given up after the gap timeout, which
 * is far longer than an append can take. Rows folded late are folded out of seq order, which is
 * harmless: concurrent batches have no order among themselves.
 *
 * @param position the highest seq read so far
 * @param gaps the seqs below {@code position} not yet seen, in ascending order
 * @param foldNo how many folds have been committed
 */
record FoldCursor(long position, List<Gap> gaps, long foldNo) {

  /** The seqs {@code from..to} (inclusive), first missed at {@code seenMillis}. */
  record Gap(long from, long to, long seenMillis) {}

  /**
   * The cursor after a fold.
   *
   * @param cursor the new cursor
   * @param folded the seqs folded, as ascending inclusive ranges {@code [from, to]}
   * @param givenUp the gaps dropped (timed out), for the log
   */
  record Advance(FoldCursor cursor, List<long[]> folded, List<Gap> givenUp) {}

  FoldCursor {
    gaps = List.copyOf(gaps);
  }

  /**
   * The cursor after folding the rows {@code seqs}: those found in the gaps and those read past
   * {@code position}, up to {@code readTo} (the last seq the read returned, or {@code position}).
   *
   * @param seqs the folded seqs, ascending, each either inside a gap or above {@code position}
   * @param readTo the highest seq the read past {@code position} returned
   * @param nowMillis the folder's clock
   * @param gapTimeoutMillis how long a gap is kept
   */
  Advance advance(long[] seqs, long readTo, long nowMillis, long gapTimeoutMillis) {
    List<Gap> open = new ArrayList<>();
    int i = 0;
    for (Gap g : gaps) {
      while (i < seqs.length && seqs[i] < g.from()) {
        i++;
      }
      long next = g.from();
      while (i < seqs.length && seqs[i] <= g.to()) {
        if (seqs[i] > next) {
          open.add(new Gap(next, seqs[i] - 1, g.seenMillis()));
        }
        next = seqs[i] + 1;
        i++;
      }
      if (next <= g.to()) {
        open.add(new Gap(next, g.to(), g.seenMillis()));
      }
    }
    long expected = position + 1;
    for (long seq : seqs) {
      if (seq <= position) {
        continue;
      }
      if (seq > expected) {
        open.add(new Gap(expected, seq - 1, nowMillis));
      }
      expected = seq + 1;
    }
    if (readTo >= expected) {
      open.add(new Gap(expected, readTo, nowMillis));
    }
    List<Gap> givenUp = new ArrayList<>();
    open.removeIf(
        g -> {
          boolean old = nowMillis - g.seenMillis() > gapTimeoutMillis;
          if (old) {
            givenUp.add(g);
          }
          return old;
        });
    open.sort(Comparator.comparingLong(Gap::from));
    FoldCursor next = new FoldCursor(Math.max(position, readTo), open, foldNo + 1);
    return new Advance(next, ranges(seqs), givenUp);
  }

  /**
   * How many of {@code next} (the rows read past the position, ascending) a fold may take so that
   * the cursor keeps at most {@code maxGaps} gaps: the holes between them are new gaps, and a gap
   * is never dropped for want of room (its row may be committing right now), so a fold reads less
   * instead. Conservative: the gaps this fold fills are still counted.
   */
  int rowsWithinGaps(long[] next, int maxGaps) {
    int gapCount = gaps.size();
    long expected = position + 1;
    for (int i = 0; i < next.length; i++) {
      if (next[i] > expected) {
        if (gapCount == maxGaps) {
          return i;
        }
        gapCount++;
      }
      expected = next[i] + 1;
    }
    return next.length;
  }

  /** Ascending seqs as ascending inclusive ranges. */
  static List<long[]> ranges(long[] seqs) {
    List<long[]> ranges = new ArrayList<>();
    for (long seq : seqs) {
      long[] last = ranges.isEmpty() ? null : ranges.getLast();
      if (last != null && seq == last[1] + 1) {
        last[1] = seq;
      } else {
        ranges.add(new long[] {seq, seq});
      }
    }
    return ranges;
  }

  /** The gaps as stored: {@code from-to@seenMillis}, comma-separated. */
  String gapsText() {
    StringBuilder text = new StringBuilder();
    for (Gap g : gaps) {
      text.append(text.isEmpty() ? "" : ",")
          .append(g.from())
          .append('-')
          .append(g.to())
          .append('@')
          .append(g.seenMillis());
    }
    return text.toString();
  }

  /** Parses {@link #gapsText()}. */
  static List<Gap> parseGaps(String text) {
    List<Gap> gaps = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return gaps;
    }
    for (String part : text.split(",")) {
      int dash = part.indexOf('-');
      int at = part.indexOf('@');
      gaps.add(
          new Gap(
              Long.parseLong(part.substring(0, dash)),
              Long.parseLong(part.substring(dash + 1, at)),
              Long.parseLong(part.substring(at + 1))));
    }
    return gaps;
  }

  /** Inclusive ranges as stored: {@code from-to}, comma-separated. */
  static String rangesText(List<long[]> ranges) {
    StringBuilder text = new StringBuilder();
    for (long[] r : ranges) {
      text.append(text.isEmpty() ? "" : ",").append(r[0]).append('-').append(r[1]);
    }
    return text.toString();
  }

  /** Parses {@link #rangesText}. */
  static List<long[]> parseRanges(String text) {
    List<long[]> ranges = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return ranges;
    }
    for (String part : text.split(",")) {
      int dash = part.indexOf('-');
      ranges.add(
          new long[] {
            Long.parseLong(part.substring(0, dash)), Long.parseLong(part.substring(dash + 1))
          });
    }
    return ranges;
  }
}
