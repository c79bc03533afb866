import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Kafka source benchmark's producer side (bench/kafka-source.sh), as a platform's producer
 * writes hotrank's record format: key {@code <biz>:<itemId>}, value {@code {"biz", "itemId",
 * "type", "userId"?, "at"}}, idempotent, {@code acks=all}. Run with Kafka's client on the class
 * path:
 *
 * <pre>
 * java -cp kafka-clients.jar:... EventLoad.java backlog BOOTSTRAP TOPIC COUNT ITEMS
 * java -cp ... EventLoad.java payload FILE LINES ITEMS
 * java -cp ... EventLoad.java lag BOOTSTRAP TOPIC RATE SECONDS FIRST ITEMS PORT BOARD INTERVAL_MS
 * </pre>
 *
 * <p>{@code backlog} writes events 1..COUNT as fast as the broker takes them and prints {@code
 * BACKLOG records=.. seconds=.. bytes=..}. Event {@code i} is a pure function of {@code i}, the
 * same as bench/kafka/event-log.sql's row {@code i}, so that the Kafka path and the event log fold
 * the same events: item {@code (i * 2654435761 mod 2^32) mod ITEMS + 1} of biz {@code article}; a
 * like of user {@code (i * 48271) mod 1,000,000 + 1} when {@code i mod 10 < 3}, else a view.
 *
 * <p>{@code payload} writes LINES record values, shaped as hotrank's own records of
 * bench/events/events.lua's batches (70% views, 30% likes with a user, over ITEMS items), one a
 * line, for ProducerPerformance's {@code --payload-file}.
 *
 * <p>{@code lag} writes events FIRST, FIRST+1, .. at RATE events/s for SECONDS seconds and,
 * meanwhile, every INTERVAL_MS a probe: a like of item {@code probe/1}, alternately produced to the
 * topic and posted to {@code POST /api/v1/events} of the instance on PORT, timed from its send to
 * the item's counters showing it ({@code GET /api/v1/items/probe/1}) and to the leaderboard BOARD
 * showing it. Prints {@code LAG kind=kafka|http ...} lines with percentiles, then {@code LOAD ...}.
 * Every wait is bounded.
 */
public class EventLoad {

  private static final long PROBE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
  private static final Pattern SCORE = Pattern.compile("\"score\"\\s*:\\s*([0-9.eE+-]+)");
  private static final Pattern LIKES =
      Pattern.compile("\"counts\"\\s*:\\s*\\{[^}]*\"like\"\\s*:\\s*([0-9]+)");

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "backlog" -> backlog(args[1], args[2], Long.parseLong(args[3]), Long.parseLong(args[4]));
      case "payload" ->
          payload(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      case "lag" ->
          lag(
              args[1],
              args[2],
              Integer.parseInt(args[3]),
              Integer.parseInt(args[4]),
              Long.parseLong(args[5]),
              Long.parseLong(args[6]),
              Integer.parseInt(args[7]),
              args[8],
              Integer.parseInt(args[9]));
      default -> throw new IllegalArgumentException("unknown command " + args[0]);
    }
  }

  // --- the events ---

  static long itemOf(long i, long items) {
    return (i * 2654435761L) % 4294967296L % items + 1;
  }

  static boolean isLike(long i) {
    return i % 10 < 3;
  }

  static long userOf(long i) {
    return (i * 48271L) % 1_000_000L + 1;
  }

  static String value(String biz, long item, boolean like, long user, Instant at) {
    StringBuilder s = new StringBuilder(96);
    s.append("{\"biz\":\"").append(biz).append("\",\"itemId\":").append(item);
    s.append(",\"type\":\"").append(like ? "like" : "view").append('"');
    if (user != 0) {
      s.append(",\"userId\":").append(user);
    }
    return s.append(",\"at\":\"").append(at).append("\"}").toString();
  }

  static ProducerRecord<String, String> event(String topic, long i, long items, Instant at) {
    long item = itemOf(i, items);
    boolean like = isLike(i);
    return new ProducerRecord<>(
        topic,
        null,
        at.toEpochMilli(),
        "article:" + item,
        value("article", item, like, like ? userOf(i) : 0, at));
  }

  static KafkaProducer<String, String> producer(String bootstrap, int lingerMs) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return new KafkaProducer<>(p);
  }

  // --- backlog ---

  static void backlog(String bootstrap, String topic, long count, long items) throws Exception {
    AtomicReference<Exception> failed = new AtomicReference<>();
    AtomicLong bytes = new AtomicLong();
    long start = System.nanoTime();
    // A larger batch than the default, as a bulk loader would use; the broker's rate, not the
    // producer's, is what the backlog's write time shows, and it is context only.
    try (KafkaProducer<String, String> p = producer(bootstrap, 20)) {
      for (long i = 1; i <= count && failed.get() == null; i++) {
        ProducerRecord<String, String> r = event(topic, i, items, Instant.now());
        bytes.addAndGet(r.key().length() + r.value().length());
        p.send(
            r,
            (meta, e) -> {
              if (e != null) {
                failed.compareAndSet(null, e);
              }
            });
      }
      p.flush();
    }
    if (failed.get() != null) {
      throw failed.get();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("BACKLOG records=%d seconds=%.2f bytes=%d%n", count, seconds, bytes.get());
  }

  // --- payload ---

  static void payload(Path file, int lines, int items) throws IOException {
    Random random = new Random(42);
    Instant at = Instant.now();
    long bytes = 0;
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
      for (int n = 0; n < lines; n++) {
        long item = 1 + random.nextInt(items);
        boolean like = random.nextInt(10) < 3;
        String v = value("article", item, like, like ? 1 + random.nextInt(1_000_000) : 0, at);
        bytes += v.length();
        out.println(v);
      }
    }
    System.out.printf("PAYLOAD lines=%d mean_bytes=%.1f%n", lines, (double) bytes / lines);
  }

  // --- lag under load ---

  static void lag(
      String bootstrap,
      String topic,
      int rate,
      int seconds,
      long first,
      long items,
      int port,
      String board,
      int intervalMs)
      throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    AtomicLong sent = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    Thread load =
        Thread.ofPlatform()
            .name("load")
            .start(
                () -> {
                  // Paced in 10 ms ticks: the events due by now are sent, then the thread sleeps.
                  try (KafkaProducer<String, String> p = producer(bootstrap, 5)) {
                    long start = System.nanoTime();
                    long i = first;
                    while (System.nanoTime() < end) {
                      long due = (System.nanoTime() - start) * rate / 1_000_000_000L;
                      Instant now = Instant.now();
                      for (; i - first < due; i++) {
                        p.send(
                            event(topic, i, items, now),
                            (meta, e) -> {
                              if (e != null) {
                                errors.incrementAndGet();
                              }
                            });
                        sent.incrementAndGet();
                      }
                      Thread.sleep(10);
                    }
                    p.flush();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });

    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    String base = "http://127.0.0.1:" + port;
    ToLongFunction<String> get =
        path -> {
          try {
            HttpResponse<String> r =
                http.send(
                    HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
              return -1;
            }
            Matcher m = (path.startsWith("/api/v1/items") ? LIKES : SCORE).matcher(r.body());
            return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
          } catch (IOException e) {
            return -1;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
          }
        };
    String boardPath = "/api/v1/boards/" + board + "?limit=1";
    String itemPath = "/api/v1/items/probe/1";
    HttpRequest.Builder post =
        HttpRequest.newBuilder(URI.create(base + "/api/v1/events"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json");

    List<List<Double>> ack = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<Double>> toCounters = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<Double>> toBoard = List.of(new ArrayList<>(), new ArrayList<>());
    long missed = 0;
    long expected = Math.max(0, get.applyAsLong(boardPath));
    try (KafkaProducer<String, String> probe = producer(bootstrap, 5)) {
      int n = 0;
      while (System.nanoTime() < end - TimeUnit.SECONDS.toNanos(1)) {
        long started = System.nanoTime();
        int kind = n++ % 2; // 0: produced to the topic, 1: posted to the API
        Instant now = Instant.now();
        if (kind == 0) {
          probe
              .send(
                  new ProducerRecord<>(
                      topic, null, now.toEpochMilli(), "probe:1", value("probe", 1, true, 0, now)))
              .get(30, TimeUnit.SECONDS);
        } else {
          HttpResponse<String> r =
              http.send(
                  post.POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"events\":[{\"biz\":\"probe\",\"itemId\":1,\"type\":\"like\"}]}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          if (r.statusCode() != 202) {
            System.err.println("probe answered " + r.statusCode() + ": " + r.body());
            missed++;
            Thread.sleep(intervalMs);
            continue;
          }
        }
        long acked = System.nanoTime();
        expected++;
        while (get.applyAsLong(itemPath) < expected
            && System.nanoTime() - started < PROBE_TIMEOUT_NANOS) {
          Thread.sleep(5);
        }
        long counted = System.nanoTime();
        while (get.applyAsLong(boardPath) < expected
            && System.nanoTime() - started < PROBE_TIMEOUT_NANOS) {
          Thread.sleep(5);
        }
        long shown = System.nanoTime();
        if (shown - started >= PROBE_TIMEOUT_NANOS) {
          missed++;
          expected = Math.max(expected, get.applyAsLong(boardPath));
        } else {
          ack.get(kind).add((acked - started) / 1e6);
          toCounters.get(kind).add((counted - started) / 1e6);
          toBoard.get(kind).add((shown - started) / 1e6);
        }
        long rest = TimeUnit.MILLISECONDS.toNanos(intervalMs) - (System.nanoTime() - started);
        if (rest > 0) {
          TimeUnit.NANOSECONDS.sleep(rest);
        }
      }
    }
    load.join(TimeUnit.SECONDS.toMillis(seconds + 60));
    for (int kind = 0; kind < 2; kind++) {
      System.out.printf(
          "LAG kind=%s samples=%d ack_p50_ms=%.1f board_p50_ms=%.1f board_p99_ms=%.1f"
              + " board_max_ms=%.1f counters_p50_ms=%.1f counters_p99_ms=%.1f%n",
          kind == 0 ? "kafka" : "http",
          toBoard.get(kind).size(),
          pick(ack.get(kind), 0.5),
          pick(toBoard.get(kind), 0.5),
          pick(toBoard.get(kind), 0.99),
          pick(toBoard.get(kind), 1.0),
          pick(toCounters.get(kind), 0.5),
          pick(toCounters.get(kind), 0.99));
    }
    System.out.printf(
        "LOAD sent=%d errors=%d seconds=%d rate=%.0f missed_probes=%d%n",
        sent.get(), errors.get(), seconds, sent.get() / (double) seconds, missed);
  }

  /** The q-quantile (nearest rank); NaN when there is no sample. */
  static double pick(List<Double> xs, double q) {
    if (xs.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(xs);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}
