package io.hotrank.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;

/** The prefetching keyset walk over rows (created_at, id) given as pairs of longs. */
class WindowScanTest {

  /** Rows 1..n, created at 10 x id; a page is the rows strictly after the position. */
  private static WindowScan.PageReader<long[]> rows(int n, int pageSize, List<Long> reads) {
    return (afterCreated, afterId) -> {
      reads.add(afterId);
      return LongStream.rangeClosed(1, n)
          .filter(id -> 10 * id > afterCreated || (10 * id == afterCreated && id > afterId))
          .limit(pageSize)
          .mapToObj(id -> new long[] {10 * id, id})
          .toList();
    };
  }

  @Test
  void everyRowIsHandedOnce_inOrder_andAFullLastPageEndsWithAnEmptyRead() {
    List<Long> reads = new CopyOnWriteArrayList<>();
    List<Long> seen = new ArrayList<>();
    long scanned =
        WindowScan.scan(
            rows(12, 4, reads),
            r -> r[0],
            r -> r[1],
            0,
            4,
            () -> false,
            page -> page.forEach(r -> seen.add(r[1])));

    assertThat(scanned).isEqualTo(12);
    assertThat(seen).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
    assertThat(reads).containsExactly(0L, 4L, 8L, 12L);
  }

  @Test
  void onceStopped_noFurtherPageIsRead() {
    List<Long> reads = new CopyOnWriteArrayList<>();
    AtomicBoolean stopped = new AtomicBoolean();
    List<Integer> pages = new ArrayList<>();
    WindowScan.scan(
        rows(100, 10, reads),
        r -> r[0],
        r -> r[1],
        0,
        10,
        stopped::get,
        page -> {
          pages.add(page.size());
          stopped.set(true); // as a run cancelled while ranking its first page
        });

    assertThat(pages).containsExactly(10);
    assertThat(reads).containsExactly(0L, 10L); // the next page was in flight, and is dropped
    assertThat(
            WindowScan.scan(
                rows(5, 10, reads), r -> r[0], r -> r[1], 0, 10, () -> true, page -> pages.add(-1)))
        .isZero();
    assertThat(pages).containsExactly(10);
  }

  @Test
  void aReadsFailure_reachesTheCallerUnchanged_andTheConsumersToo() {
    QueryTimeoutException timeout = new QueryTimeoutException("slow");
    assertThatThrownBy(
            () ->
                WindowScan.<long[]>scan(
                    (c, id) -> {
                      throw timeout;
                    },
                    r -> r[0],
                    r -> r[1],
                    0,
                    10,
                    () -> false,
                    page -> {}))
        .isSameAs(timeout);

    IllegalStateException cancelled = new IllegalStateException("cancelled");
    List<Long> reads = new CopyOnWriteArrayList<>();
    assertThatThrownBy(
            () ->
                WindowScan.scan(
                    rows(100, 10, reads),
                    r -> r[0],
                    r -> r[1],
                    0,
                    10,
                    () -> false,
                    page -> {
                      throw cancelled;
                    }))
        .isSameAs(cancelled);
    assertThat(reads).hasSizeLessThanOrEqualTo(2); // the first page, and at most the next in flight
  }
}
