package io.hotrank.hotkey;

import io.hotrank.cache.CacheNotices;
import io.hotrank.job.DrainLoop;
import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.LuaScripts;
import io.hotrank.redis.RedisRound;
import io.hotrank.time.Ticker;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.stereotype.Component;

/**
 * Finds the keys read most across the cluster and pins them on every instance.
 *
 * <ol>
 *   <li>Readers call {@link #record} for every read (item reads, board reads).
 *   <li>Twice a slice, this instance pushes what it counted since its last push (per slice, the
 *       {@code push-top} keys with most new reads, with their counts) into each slice's hash in
 *       Redis ({@code <prefix>hk:<slice>}), one round trip: counts arrive pre-aggregated, a few
 *       entries per key and instance per slice, not one per read.
 *   <li>The job {@code hotkey-detect} runs on one instance at a time (its lease; every second,
 *       looking again every quarter slice): it sums each rule's window of slices, the current one
 *       included, and announces every key at or above the rule's threshold on the notice channel,
 *       again every half of the rule's duration while it stays hot.
 *   <li>Every instance, on an announcement, pins the key for the rule's duration: subscribers
 *       ({@link #whenHot}) keep it in memory out of reach of eviction.
 * </ol>
 *
 * Thread-safe.
 */
@Component
public class HotKeys implements SmartLifecycle, JobSource {

  private static final Logger log = LoggerFactory.getLogger(HotKeys.class);

  static final String TOPIC = "hotkeys";
  static final String DETECT = "hotkey-detect";

  /** How long a slice's hash outlives the longest rule window. */
  private static final Duration SLICE_SLACK = Duration.ofSeconds(10);

  /** How many slices before the current one may still take pushes, and are read again. */
  private static final int OPEN_SLICES = 3;

  private static final RedisScript<Long> PUSH = LuaScripts.load("hotkeys-push.lua", Long.class);

  /**
   * A key this instance holds as hot.
   *
   * @param rate reads counted over the rule's interval when last announced, over all instances
   */
  public record HotKey(String key, String rule, long rate, Instant since, Instant until) {}

  private record Subscriber(String prefix, BiConsumer<String, Long> pin) {}

  private final HotKeyProperties properties;
  private final RedisRound round;
  private final CacheNotices notices;
  private final Clock clock;
  private final Ticker ticker;
  private final String keyPrefix;
  private final long sliceMillis;
  private final HotKeyCounter counter;
  private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
  private final Map<String, HotKey> hot = new ConcurrentHashMap<>();
  private final Map<String, Long> hotUntilNanos = new ConcurrentHashMap<>();

  /** When the detector last announced each key (ticker nanos), on the instance detecting. */
  private final Map<String, Long> announced = new ConcurrentHashMap<>();

  /** The detector's copy of the window's slices, by number (read from Redis). */
  private final NavigableMap<Long, Seen> slicesSeen = new TreeMap<>();

  /**
   * A slice as the detector last read it; {@code settled} if it could take no more pushes then
   * (read while open, it is read again once, after it settles: the detector may have been elsewhere
   * since).
   */
  private record Seen(Map<String, Long> counts, boolean settled) {}

  private final Map<String, Counter> detections = new HashMap<>();
  private @Nullable ScheduledExecutorService pusher;
  private volatile boolean running;

  HotKeys(
      HotKeyProperties properties,
      StringRedisTemplate redis,
      HotrankRedisProperties redisProperties,
      CacheNotices notices,
      Clock clock,
      Ticker ticker,
      MeterRegistry meters) {
    this.properties = properties;
    this.round = new RedisRound(redis);
    this.notices = notices;
    this.clock = clock;
    this.ticker = ticker;
    this.keyPrefix = redisProperties.keyPrefix() + "hk:";
    this.sliceMillis = properties.slice().toMillis();
    this.counter = new HotKeyCounter(sliceMillis, properties.maxKeys(), clock.millis());
    for (HotKeyProperties.Rule rule : properties.rules()) {
      detections.put(
          rule.prefix(), meters.counter("hotrank.hotkeys.detections", "rule", rule.prefix()));
    }
    meters.gauge("hotrank.hotkeys.hot", hot, Map::size);
    meters.more().counter("hotrank.hotkeys.uncounted", List.of(), counter, HotKeyCounter::dropped);
    notices.subscribe(TOPIC, this::announcement);
  }

  /** Counts a read of {@code key} on this instance. */
  public void record(String key) {
    if (properties.enabled()) {
      counter.record(key, clock.millis());
    }
  }

  /**
   * Tells {@code pin} of every announced hot key starting with {@code prefix}, with the ticker time
   * until which to keep it; again on each re-announcement.
   */
  public void whenHot(String prefix, BiConsumer<String, Long> pin) {
    subscribers.add(new Subscriber(prefix, pin));
  }

  /** The keys this instance holds as hot now, the most read first. */
  public List<HotKey> current() {
    long now = ticker.read();
    List<HotKey> keys = new ArrayList<>();
    hot.forEach(
        (key, value) -> {
          Long until = hotUntilNanos.get(key);
          if (until != null && until > now) {
            keys.add(value);
          }
        });
    keys.sort(Comparator.comparingLong(HotKey::rate).reversed().thenComparing(HotKey::key));
    return keys;
  }

  public HotKeyProperties properties() {
    return properties;
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(
        new JobDefinition(
            new DetectJob(), properties.enabled() ? CronExpression.parse("* * * * * *") : null));
  }

  @Override
  public synchronized void start() {
    if (properties.enabled()) {
      pusher =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread thread = new Thread(r, "hotkey-push");
                thread.setDaemon(true);
                return thread;
              });
      // Twice a slice, the second time just after it ends.
      long every = pushEvery();
      long delay = every - clock.millis() % every + 5;
      pusher.scheduleAtFixedRate(this::pushAndSweep, delay, every, TimeUnit.MILLISECONDS);
    }
    running = true;
  }

  @Override
  public synchronized void stop() {
    running = false;
    if (pusher != null) {
      pusher.shutdownNow();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  private void pushAndSweep() {
    try {
      push();
    } catch (RuntimeException e) {
      log.debug("Hot-key counts not pushed ({})", e.toString());
    }
    sweep();
  }

  /**
   * Pushes what this instance counted since its last push, pre-aggregated (the {@code push-top}
   * keys of each slice with most new reads, with their counts), into the cluster's hashes of those
   * slices: one round trip, nothing when nothing was read.
   */
  void push() {
    Map<Long, List<Map.Entry<String, Long>>> taken =
        counter.take(clock.millis(), properties.pushTop());
    if (taken.isEmpty()) {
      return;
    }
    byte[] ttl = RedisRound.bytes(Long.toString(maxIntervalMillis() + SLICE_SLACK.toMillis()));
    round.run(
        List.of(
            commands -> {
              List<Supplier<Long>> answers = new ArrayList<>(taken.size());
              taken.forEach(
                  (number, keys) -> {
                    byte[][] args = new byte[1 + 2 * keys.size()][];
                    args[0] = ttl;
                    int next = 1;
                    for (Map.Entry<String, Long> e : keys) {
                      args[next++] = RedisRound.bytes(e.getKey());
                      args[next++] = RedisRound.bytes(Long.toString(e.getValue()));
                    }
                    answers.add(
                        RedisRound.script(
                            commands,
                            PUSH,
                            ScriptOutputType.INTEGER,
                            new byte[][] {RedisRound.bytes(keyPrefix + number)},
                            args));
                  });
              return () -> answers.forEach(Supplier::get);
            }));
  }

  private void sweep() {
    long now = ticker.read();
    hotUntilNanos.forEach(
        (key, until) -> {
          if (until <= now && hotUntilNanos.remove(key, until)) {
            hot.remove(key);
          }
        });
  }

  /**
   * Sums each rule's window of slices over the cluster, the current slice included, and announces
   * the keys at or over its threshold. The slices still taking pushes (the current one and the last
   * {@value #OPEN_SLICES} before it: pushes trail a slice's end by up to a push period and the
   * instances' clock skew) are read on every look, and once more after they settle, in one round
   * trip; settled ones are kept from when they were read.
   *
   * @return how many keys were announced
   */
  int detect() {
    synchronized (slicesSeen) {
      return detectLocked();
    }
  }

  private int detectLocked() {
    long current = clock.millis() / sliceMillis;
    long oldest = current - maxIntervalMillis() / sliceMillis + 1;
    slicesSeen.headMap(oldest).clear();
    List<Long> numbers = new ArrayList<>();
    for (long number = oldest; number <= current; number++) {
      Seen seen = slicesSeen.get(number);
      if (seen == null || !seen.settled()) {
        numbers.add(number);
      }
    }
    round.run(
        List.of(
            commands -> {
              List<RedisFuture<Map<byte[], byte[]>>> hashes = new ArrayList<>(numbers.size());
              for (long number : numbers) {
                hashes.add(commands.hgetall(RedisRound.bytes(keyPrefix + number)));
              }
              return () -> {
                for (int i = 0; i < numbers.size(); i++) {
                  Map<String, Long> counts = new HashMap<>();
                  RedisRound.await(hashes.get(i))
                      .forEach(
                          (key, count) ->
                              counts.put(
                                  RedisRound.text(key), Long.parseLong(RedisRound.text(count))));
                  long number = numbers.get(i);
                  slicesSeen.put(number, new Seen(counts, number < current - OPEN_SLICES));
                }
              };
            }));
    long now = ticker.read();
    int announcedNow = 0;
    for (HotKeyProperties.Rule rule : properties.rules()) {
      long first = current - rule.interval().toMillis() / sliceMillis + 1;
      Map<String, Long> sums = new HashMap<>();
      slicesSeen
          .tailMap(first)
          .values()
          .forEach(
              seen ->
                  seen.counts()
                      .forEach(
                          (key, count) -> {
                            if (properties.ruleFor(key) == rule) {
                              sums.merge(key, count, Long::sum);
                            }
                          }));
      for (Map.Entry<String, Long> sum : sums.entrySet()) {
        if (sum.getValue() < rule.threshold()) {
          continue;
        }
        Long last = announced.get(sum.getKey());
        long refresh = rule.duration().toNanos() / 2;
        if (last != null && now - last < refresh) {
          continue;
        }
        if (last == null || now - last >= rule.duration().toNanos()) {
          detections.get(rule.prefix()).increment();
        }
        notices.publish(
            TOPIC, sum.getKey() + " " + sum.getValue() + " " + rule.duration().toMillis());
        announced.put(sum.getKey(), now);
        announcedNow++;
      }
    }
    announced.entrySet().removeIf(e -> now - e.getValue() > 2 * maxDurationNanos());
    return announcedNow;
  }

  /** An announcement: "{@code <key> <rate> <duration ms>}". */
  private void announcement(String payload) {
    if (!properties.enabled()) {
      return;
    }
    String[] parts = payload.split(" ");
    if (parts.length != 3) {
      return;
    }
    String key = parts[0];
    HotKeyProperties.Rule rule = properties.ruleFor(key);
    if (rule == null) {
      return;
    }
    long rate = Long.parseLong(parts[1]);
    long durationMillis = Long.parseLong(parts[2]);
    long until = ticker.read() + Duration.ofMillis(durationMillis).toNanos();
    Instant now = clock.instant();
    HotKey previous = hot.get(key);
    hot.put(
        key,
        new HotKey(
            key,
            rule.prefix(),
            rate,
            previous == null ? now : previous.since(),
            now.plusMillis(durationMillis)));
    hotUntilNanos.put(key, until);
    for (Subscriber subscriber : subscribers) {
      if (key.startsWith(subscriber.prefix())) {
        subscriber.pin().accept(key, until);
      }
    }
  }

  /** How often an instance pushes its counts: twice a slice. */
  private long pushEvery() {
    return Math.max(5, sliceMillis / 2);
  }

  private long maxIntervalMillis() {
    return properties.rules().stream()
        .mapToLong(rule -> rule.interval().toMillis())
        .max()
        .orElse(sliceMillis);
  }

  private long maxDurationNanos() {
    return properties.rules().stream().mapToLong(rule -> rule.duration().toNanos()).max().orElse(0);
  }

  /** The detector: one instance at a time, looking every half slice within its second. */
  private final class DetectJob implements Job {

    @Override
    public String name() {
      return DETECT;
    }

    @Override
    public boolean frequent() {
      return true;
    }

    @Override
    public boolean lingers() {
      return true;
    }

    @Override
    public void run(JobContext context) throws InterruptedException {
      long end = ticker.read() + DrainLoop.RUN_FOR.toNanos();
      long pause = Math.max(5, pushEvery() / 2);
      while (!context.cancelled() && ticker.read() < end) {
        detect();
        Thread.sleep(pause);
      }
    }
  }
}
