package io.hotrank.bench;

import io.hotrank.HotrankApplication;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.FamilyPublished;
import io.hotrank.board.compute.BoardComputer;
import io.hotrank.board.compute.BoardJobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A batch board by tag over the ranking benchmark's items (bench/generate-items.sql) next to the
 * same board unsegmented, in one run on PostgreSQL: the whole computation and publish of each, and
 * the family's scan alone (its one labelled pass filling every segment's heap, without publishing).
 * The items are tagged first, deterministically, each with one tag drawn log-uniformly (Zipf with
 * exponent 1) over {@code --bench.tags} values. Updates its section of BENCHMARKS.md unless {@code
 * --bench.report=none}.
 *
 * <p>The hand-made alternative, one board per tag each filtered to its tag, would scan the window
 * once per board: at least the unsegmented run's time per board, which the report multiplies out
 * rather than running hundreds of scans.
 */
public final class SegmentBench {

  /** The report's section of a run over {@code tags} tags: one section per tag count. */
  static String section(int tags) {
    return String.format(
        Locale.ROOT,
        "## Segmented batch board (issue 40): a board by tag (%,d tags) vs the same board"
            + " unsegmented (PostgreSQL, 1M items)",
        tags);
  }

  private static final String PLAIN = "bench-hot";
  private static final String FAMILY = "bench-by-tag";

  private SegmentBench() {}

  public static void main(String[] args) {
    int code;
    try {
      code = run(args);
    } catch (Throwable e) {
      e.printStackTrace();
      code = 1;
    }
    System.out.flush();
    System.exit(code);
  }

  private static int run(String[] args) throws Exception {
    int tags = 10_000;
    List<String> rest = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("--bench.tags=")) {
        tags = Integer.parseInt(arg.substring("--bench.tags=".length()));
      } else {
        rest.add(arg);
      }
    }
    RankingScanBench.Options options = RankingScanBench.Options.parse(rest.toArray(String[]::new));
    options.command = System.getenv().getOrDefault("HOTRANK_BENCH_COMMAND", "bench/segments.sh");
    Path dataDir = Files.createTempDirectory("hotrank-bench-");
    String prefix = RankingScanBench.redisPrefix();
    Map<String, String> properties = RankingScanBench.baseProperties(options, dataDir, prefix);
    for (int i = 0; i < 2; i++) {
      String board = "hotrank.boards[" + i + "].";
      properties.put(board + "name", i == 0 ? PLAIN : FAMILY);
      properties.put(board + "biz", RankingScanBench.BIZ);
      properties.put(board + "algorithm", "hacker-news");
      properties.put(board + "window", RankingScanBench.WINDOW.toDays() + "d");
      properties.put(board + "size", Integer.toString(RankingScanBench.SIZE));
      properties.put(board + "refresh", "0 0 0 1 1 *");
    }
    properties.put("hotrank.boards[1].segment-by", "tag");
    properties.put("logging.level.root", "WARN");
    properties.put("logging.level.io.hotrank", "WARN");
    properties.putAll(options.springOverrides);
    String[] springArgs =
        properties.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    ConfigurableApplicationContext context = null;
    try {
      context =
          new SpringApplicationBuilder(HotrankApplication.class)
              .web(WebApplicationType.NONE)
              .run(springArgs);
      return measure(context, options, tags);
    } finally {
      if (context != null) {
        RankingScanBench.deleteRedisKeys(context, prefix);
        RankingScanBench.closeBounded(context);
      }
      RankingScanBench.deleteRecursively(dataDir);
    }
  }

  /**
   * The tag of an item: log-uniform over 1..tags, from a hash of its id (deterministic), given the
   * column holding the id.
   */
  static String tagSql(int tags, String idColumn) {
    return "'t' || floor(exp(((hashtext("
        + idColumn
        + "::text)::bigint & 2147483647)::float8 / 2147483648.0)"
        + " * ln("
        + tags
        + ")))::int";
  }

  private static int measure(
      ConfigurableApplicationContext context, RankingScanBench.Options options, int tags)
      throws Exception {
    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
    long stale =
        jdbc.queryForObject(
            "SELECT (SELECT count(*) FROM hr_item WHERE biz = ? AND tags <> "
                + tagSql(tags, "id")
                + ") + (SELECT count(*) FROM hr_item_counter WHERE biz = ? AND tags <> "
                + tagSql(tags, "item_id")
                + ")",
            Long.class,
            RankingScanBench.BIZ,
            RankingScanBench.BIZ);
    if (stale > 0) {
      System.err.printf(
          Locale.ROOT,
          "%,d items are not tagged over %,d tags; bench/segments.sh tags them%n",
          stale,
          tags);
      return 2;
    }
    long distinct =
        jdbc.queryForObject(
            "SELECT count(DISTINCT tags) FROM hr_item WHERE biz = ?",
            Long.class,
            RankingScanBench.BIZ);
    BoardJobs jobs = context.getBean(BoardJobs.class);
    BoardComputer computer = context.getBean(BoardComputer.class);
    var family = context.getBean(BoardRegistry.class).require(FAMILY);
    String loadBefore = BenchMachine.loadAverage();
    List<Long> plain = new ArrayList<>();
    List<Long> whole = new ArrayList<>();
    List<Long> scan = new ArrayList<>();
    int segments = 0;
    for (int round = -options.warmups; round < options.rounds; round++) {
      long t0 = System.nanoTime();
      jobs.recompute(PLAIN);
      long t1 = System.nanoTime();
      FamilyPublished published = jobs.recomputeFamily(FAMILY);
      long t2 = System.nanoTime();
      computer.computeFamily(family, Instant.now().truncatedTo(ChronoUnit.MILLIS), () -> false);
      long t3 = System.nanoTime();
      segments = published.segments();
      System.out.printf(
          Locale.ROOT,
          "round %d: unsegmented %d ms, by tag %d ms (%d segments), by tag's scan alone %d ms%n",
          round,
          (t1 - t0) / 1_000_000,
          (t2 - t1) / 1_000_000,
          segments,
          (t3 - t2) / 1_000_000);
      if (round >= 0) {
        plain.add((t1 - t0) / 1_000_000);
        whole.add((t2 - t1) / 1_000_000);
        scan.add((t3 - t2) / 1_000_000);
      }
    }
    String loadAfter = BenchMachine.loadAverage();
    long p = median(plain);
    long w = median(whole);
    long s = median(scan);
    String section =
        String.join(
            "\n",
            section(tags),
            "",
            "- Date: "
                + DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC))
                + " UTC",
            "- Machine: " + BenchMachine.describe(),
            "- JVM: "
                + System.getProperty("java.vm.name")
                + " "
                + System.getProperty("java.vm.version")
                + ", -Xmx"
                + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                + "m",
            "- Command (from the repository root): `" + options.command + "`",
            String.format(
                Locale.ROOT,
                "- Data: %,d live items of biz `bench` (bench/generate-items.sql), each with one tag"
                    + " drawn log-uniformly (Zipf, exponent 1) over %,d values (%,d distinct);"
                    + " boards hacker-news, size 100, window 30 days; `%s` unsegmented,"
                    + " `%s` with `segment-by: tag`",
                options.items,
                tags,
                distinct,
                PLAIN,
                FAMILY),
            String.format(
                Locale.ROOT,
                "- Rounds: %d warm-up + %d measured, each the three in turn; load average before"
                    + " %s, after %s",
                options.warmups,
                options.rounds,
                loadBefore,
                loadAfter),
            "",
            "| wall time | median | min | max | / unsegmented |",
            "|---|---:|---:|---:|---:|",
            row("unsegmented board: scan, rank, publish one board", plain, p),
            row(
                String.format(
                    Locale.ROOT,
                    "board by tag: one scan, then publish %,d segment boards",
                    segments),
                whole,
                p),
            row("board by tag: the scan alone (every segment's heap, no publish)", scan, p),
            String.format(
                Locale.ROOT,
                "| 100 hand-made boards, one per tag, each scanning the window (100 x the"
                    + " unsegmented median, not run) | %d ms | | | **%.0fx** |",
                100 * p,
                100.0),
            "",
            String.format(
                Locale.ROOT,
                "- Ratio median(by tag) / median(unsegmented): **%.2fx** (target ≤ 1.5x: %s);"
                    + " the scan alone: **%.2fx**",
                (double) w / p,
                w <= 1.5 * p ? "met" : "not met",
                (double) s / p),
            String.format(
                Locale.ROOT,
                "- Rounds, ms (unsegmented / by tag / by tag's scan): %s",
                rounds(plain, whole, scan)));
    System.out.println(section);
    if (options.report != null) {
      RankingScanBench.writeReport(options.report, section(tags), section);
    }
    return 0;
  }

  private static String row(String label, List<Long> values, long reference) {
    long median = median(values);
    return String.format(
        Locale.ROOT,
        "| %s | %d ms | %d ms | %d ms | **%.2fx** |",
        label,
        median,
        values.stream().mapToLong(Long::longValue).min().orElse(0),
        values.stream().mapToLong(Long::longValue).max().orElse(0),
        (double) median / reference);
  }

  private static String rounds(List<Long> a, List<Long> b, List<Long> c) {
    List<String> each = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      each.add(a.get(i) + " / " + b.get(i) + " / " + c.get(i));
    }
    return String.join(", ", each);
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
