package io.hotrank.bench;

import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.item.Item;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a local board hit costs: looking up the immutable snapshot and taking its pre-rendered
 * bytes, against the peer a simpler service would run, serializing the same 50 entries with Jackson
 * on every request. Run by {@code bench/board-snapshot-jmh.sh} with JMH's GC profiler, which
 * reports the bytes allocated per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BoardSnapshotJmh {

  private final Map<String, BoardSnapshot> local = new ConcurrentHashMap<>();
  private final JsonMapper json = JsonMapper.builder().build();
  private List<BoardEntry> entries;

  @Setup
  public void setUp() {
    entries = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      entries.add(
          new BoardEntry(
              i,
              "article",
              1000 + i,
              100.0 / i,
              "Benchmark article number " + i + " about hot lists",
              i % 37,
              Instant.parse("2026-11-29T10:00:00Z").plusSeconds(i * 60L),
              new Item.Counts(10L * i, 100L * i, i, i / 2, i / 3, i / 10)));
    }
    local.put("article-hot", BoardSnapshot.of("article-hot", 7, Instant.now(), entries, 50));
  }

  /** The default read: a map lookup and the pre-rendered default body, shared, not copied. */
  @Benchmark
  public byte[] localHitDefaultWindow() {
    return local.get("article-hot").body(0, 50);
  }

  /** Another window: pre-rendered entries copied into one new array. */
  @Benchmark
  public byte[] localHitOtherWindow() {
    return local.get("article-hot").body(10, 20);
  }

  /** The peer: the same document serialized by Jackson on each request. */
  @Benchmark
  public byte[] jacksonPerRequest() {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("board", "article-hot");
    document.put("version", 7);
    document.put("computedAt", "2026-11-29T10:00:00Z");
    document.put("total", entries.size());
    document.put("items", entries.subList(0, 50));
    return json.writeValueAsBytes(document);
  }
}
