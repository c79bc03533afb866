package io.hotrank.ops;

import io.hotrank.event.EventBatch;
import io.hotrank.ingest.EventIngest;
import io.hotrank.item.Bizes;
import io.hotrank.item.ItemExistsException;
import io.hotrank.item.ItemNotFoundException;
import io.hotrank.item.ItemRequest;
import io.hotrank.item.ItemService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Demo mode ({@code --hotrank.demo.enabled=true}): seeds a few hundred items of the demo biz and
 * sends a steady, Zipf-distributed stream of interactions, so that a new user watches the default
 * board change from one minute to the next. Which items are popular drifts every minute, and a new
 * item appears every minute. Uses the same services as the HTTP API, so its biz must be known like
 * any other ({@code hotrank.bizes} or a configured board's; the shipped {@code article} is): the
 * service refuses to start in demo mode with an unknown one rather than log refusals forever.
 */
@Component
@ConditionalOnBooleanProperty("hotrank.demo.enabled")
class DemoTraffic implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(DemoTraffic.class);
  private static final String[] WORDS = {
    "Redis", "ranking", "cache", "Java", "latency", "scheduler", "lease", "feed", "window",
    "heap", "cluster", "snapshot", "index", "query", "stream", "sketch", "decay", "score"
  };

  private final ItemService items;
  private final EventIngest events;
  private final Clock clock;
  private final String biz;
  private final int seedItems;
  private final int eventsPerSecond;
  private final double zipfExponent;
  private final Random random = new Random();
  private @Nullable ScheduledExecutorService executor;
  private volatile boolean running;
  private final List<Long> ids = new ArrayList<>();
  private double @Nullable [] cumulative;

  DemoTraffic(
      ItemService items, EventIngest events, Clock clock, DemoProperties properties, Bizes bizes) {
    if (!bizes.known(properties.biz())) {
      throw new IllegalStateException(
          "hotrank.demo.biz="
              + properties.biz()
              + " is not a known biz: add it to hotrank.bizes, or create it with POST"
              + " /api/v1/admin/bizes");
    }
    this.items = items;
    this.events = events;
    this.clock = clock;
    this.biz = properties.biz();
    this.seedItems = properties.items();
    this.eventsPerSecond = properties.eventsPerSecond();
    this.zipfExponent = properties.zipfExponent();
  }

  /** Seeds after startup, so the service answers while the demo fills in. */
  @EventListener(ApplicationReadyEvent.class)
  void seedAndStream() {
    Instant now = clock.instant();
    for (long id = 1; id <= seedItems; id++) {
      Instant createdAt = now.minus(Duration.ofMinutes(random.nextInt(3 * 24 * 60)));
      create(id, createdAt);
    }
    rebuildDistribution();
    executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "demo-traffic"));
    executor.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    executor.scheduleAtFixedRate(this::newItem, 1, 1, TimeUnit.MINUTES);
    log.info(
        "Demo traffic: {} items of biz '{}', {} events/s, Zipf exponent {}",
        ids.size(),
        biz,
        eventsPerSecond,
        zipfExponent);
  }

  private void create(long id, Instant createdAt) {
    try {
      items.create(
          new ItemRequest(
              biz, id, 1 + random.nextLong(50), title(), List.of("demo"), null, createdAt));
    } catch (ItemExistsException exists) {
      // Seeded by an earlier demo run: keep it.
    }
    synchronized (ids) {
      ids.add(id);
    }
  }

  private void newItem() {
    try {
      long id;
      synchronized (ids) {
        id = ids.stream().mapToLong(Long::longValue).max().orElse(0) + 1;
      }
      create(id, clock.instant());
      rebuildDistribution();
    } catch (RuntimeException e) {
      log.warn("Demo traffic: could not add an item ({})", e.toString());
    }
  }

  /** Zipf weights over item ranks: rank r gets 1 / r^s. */
  private synchronized void rebuildDistribution() {
    int n;
    synchronized (ids) {
      n = ids.size();
    }
    cumulative = new double[n];
    double sum = 0;
    for (int r = 0; r < n; r++) {
      sum += 1 / Math.pow(r + 1, zipfExponent);
      cumulative[r] = sum;
    }
  }

  private void tick() {
    try {
      List<Long> snapshot;
      synchronized (ids) {
        snapshot = List.copyOf(ids);
      }
      // Popularity drifts: every minute a different item holds each Zipf rank.
      long minute = clock.instant().getEpochSecond() / 60;
      List<EventBatch.Event> batch = new ArrayList<>(eventsPerSecond);
      for (int i = 0; i < eventsPerSecond; i++) {
        int rank = sampleRank();
        long itemId = snapshot.get((int) ((rank + minute * 7) % snapshot.size()));
        batch.add(new EventBatch.Event(null, biz, itemId, type(), null, null));
      }
      events.accept(new EventBatch(batch), null);
    } catch (ItemNotFoundException gone) {
      // Someone deleted a demo item: stop sending it traffic, or every batch would be refused.
      synchronized (ids) {
        ids.remove(Long.valueOf(gone.id()));
      }
      rebuildDistribution();
      log.info(
          "Demo traffic: item {}/{} is gone; no longer sending it events", gone.biz(), gone.id());
    } catch (RuntimeException e) {
      log.warn("Demo traffic: batch failed ({})", e.toString());
    }
  }

  private synchronized int sampleRank() {
    double u = random.nextDouble() * cumulative[cumulative.length - 1];
    int low = 0;
    int high = cumulative.length - 1;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (cumulative[mid] < u) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  private String type() {
    int roll = random.nextInt(100);
    if (roll < 70) {
      return "view";
    }
    if (roll < 88) {
      return "like";
    }
    if (roll < 94) {
      return "comment";
    }
    if (roll < 97) {
      return "share";
    }
    return "collect";
  }

  private String title() {
    return WORDS[random.nextInt(WORDS.length)]
        + " "
        + WORDS[random.nextInt(WORDS.length)]
        + " in practice #"
        + random.nextInt(1000);
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    if (executor != null) {
      executor.shutdownNow();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
