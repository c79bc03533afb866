package io.hotrank.job;

import io.hotrank.lock.InstanceId;
import io.hotrank.lock.LeaseConfiguration.LeaseStores;
import io.hotrank.lock.LeaseWatchdog;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.stereotype.Component;

/**
 * Fires the declared jobs on their cron (in UTC) and runs them on demand, each wrapped in its
 * decorators (log line, lease, metrics). One job runs at most once at a time on this instance; its
 * lease makes that once across instances. A run that takes longer than its interval makes the fire
 * times it overran be skipped, not queued.
 *
 * <p>On shutdown it stops firing, gives running jobs {@code hotrank.job.shutdown-grace} to finish,
 * then signals their cancellation and waits (bounded) for them to stop, and finally releases the
 * leases still held, so that another instance takes over at its next tick rather than after the
 * leases' time to live.
 */
@Component
public class JobScheduler implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(JobScheduler.class);

  /**
   * How long shutdown waits for cancelled jobs to reach their next safe point: longer than the 10 s
   * statement timeout ({@code spring.jdbc.template.query-timeout}), so a query in flight ends
   * before the beans it uses are destroyed.
   */
  private static final Duration CANCEL_WAIT = Duration.ofSeconds(12);

  /** How long a run asked for waits for this instance's run of the same job to finish. */
  private static final Duration MANUAL_WAIT = Duration.ofSeconds(15);

  private static final Duration POLL = Duration.ofMillis(50);

  /** How long start waits for the first measurement of the lease stores' clocks. */
  private static final Duration FIRST_CLOCK_CHECK = Duration.ofSeconds(3);

  /** How often each lease store's clock is measured again. */
  private static final Duration CLOCK_CHECK = Duration.ofSeconds(30);

  /**
   * A job as the scheduler holds it; {@code engine} is null when the scheduler fires it itself, and
   * otherwise the engine that does.
   */
  private record Entry(
      JobDefinition definition,
      Job decorated,
      JobStatus status,
      ReentrantLock running,
      StoreClock fireClock,
      @Nullable JobEngine engine) {

    boolean firedHere() {
      return engine == null && definition.cron() != null;
    }
  }

  private final Map<String, Entry> jobs = new LinkedHashMap<>();
  private final Duration grace;
  private final Clock clock;

  /**
   * Fire times follow the clock of each job's lease store (its time as last measured, carried
   * forward on the ticker), not the injectable clock, which tests freeze or move and jobs read as
   * their now.
   */
  private final Map<String, StoreClock> storeClocks = new LinkedHashMap<>();

  private final List<ScheduledFuture<?>> pending = new ArrayList<>();
  private @Nullable ScheduledExecutorService executor;
  private @Nullable ScheduledExecutorService clockChecks;
  private volatile boolean firing;
  private volatile boolean cancelling;
  private volatile boolean running;

  JobScheduler(
      List<JobSource> sources,
      List<JobEngine> engines,
      JobProperties properties,
      LeaseStores stores,
      LeaseWatchdog watchdog,
      InstanceId instance,
      MeterRegistry meters,
      Clock clock,
      Ticker ticker) {
    this.grace = properties.shutdownGrace();
    this.clock = clock;
    Map<String, JobEngine> enginesByName = new LinkedHashMap<>();
    engines.forEach(engine -> enginesByName.put(engine.name(), engine));
    Map<String, Job> unleased = new LinkedHashMap<>();
    Map<String, Map<String, JobDefinition>> declared = new LinkedHashMap<>();
    for (JobSource source : sources) {
      for (JobDefinition definition : source.jobs()) {
        String name = definition.job().name();
        JobSettings settings = properties.settingsOf(name);
        JobEngine engine = engineOf(name, settings, enginesByName);
        JobStatus status = new JobStatus(name, settings);
        meters.gauge(
            "hotrank.job.consecutive.failures",
            List.of(io.micrometer.core.instrument.Tag.of("job", name)),
            status.consecutiveFailuresGauge());
        Job decorated =
            JobBuilder.of(definition.job())
                .logged(instance.value(), ticker)
                .leased(stores.of(settings.store()), watchdog, status)
                .observed(meters, status, clock, ticker)
                .build();
        unleased.put(
            name,
            JobBuilder.of(definition.job())
                .logged(instance.value(), ticker)
                .observed(meters, status, clock, ticker)
                .build());
        if (engine != null) {
          declared.computeIfAbsent(engine.name(), e -> new LinkedHashMap<>()).put(name, definition);
        }
        StoreClock fireClock =
            storeClocks.computeIfAbsent(
                settings.store(), kind -> StoreClock.of(stores.of(kind), clock, ticker));
        Entry entry =
            new Entry(definition, decorated, status, new ReentrantLock(), fireClock, engine);
        if (jobs.put(name, entry) != null) {
          throw new IllegalStateException("two jobs are named '" + name + "'");
        }
      }
    }
    for (JobEngine engine : engines) {
      engine.adopt(
          java.util.Collections.unmodifiableMap(unleased),
          declared.getOrDefault(engine.name(), Map.of()));
    }
    for (String configured : properties.jobs().keySet()) {
      if (!jobs.containsKey(configured)) {
        throw new IllegalArgumentException(
            "hotrank.jobs." + configured + " configures no known job; known: " + jobs.keySet());
      }
    }
  }

  private static @Nullable JobEngine engineOf(
      String job, JobSettings settings, Map<String, JobEngine> engines) {
    if (settings.engine().equals(JobSettings.LEASE_ENGINE)) {
      return null;
    }
    JobEngine engine = engines.get(settings.engine());
    if (engine == null) {
      throw new IllegalArgumentException(
          "hotrank.jobs."
              + job
              + ".engine="
              + settings.engine()
              + " is not an engine; known: "
              + JobSettings.LEASE_ENGINE
              + (engines.isEmpty() ? "" : ", " + String.join(", ", engines.keySet())));
    }
    return engine;
  }

  @Override
  public synchronized void start() {
    running = true;
    firing = true;
    cancelling = false;
    long triggered = jobs.values().stream().filter(Entry::firedHere).count();
    if (triggered == 0) {
      return;
    }
    long lingering =
        jobs.values().stream().filter(e -> e.firedHere() && e.definition().job().lingers()).count();
    // Up to four threads for the jobs that run and return, plus one per job that loops.
    int threads = (int) (Math.min(4, triggered - lingering) + lingering);
    ScheduledThreadPoolExecutor pool =
        new ScheduledThreadPoolExecutor(
            Math.max(1, threads), Thread.ofPlatform().name("job-", 0).factory());
    pool.setRemoveOnCancelPolicy(true);
    executor = pool;
    // Measured on a thread of their own: a store that hangs delays neither start nor any fire.
    ScheduledExecutorService measuring =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("job-clock").daemon(true).factory());
    clockChecks = measuring;
    ScheduledFuture<?> first =
        measuring.schedule(
            () -> storeClocks.values().forEach(StoreClock::measure), 0, TimeUnit.MILLISECONDS);
    measuring.scheduleWithFixedDelay(
        () -> storeClocks.values().forEach(StoreClock::measure),
        CLOCK_CHECK.toMillis(),
        CLOCK_CHECK.toMillis(),
        TimeUnit.MILLISECONDS);
    try {
      first.get(FIRST_CLOCK_CHECK.toMillis(), TimeUnit.MILLISECONDS); // fire on it from the start
    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
      log.warn("Lease stores' clocks not measured within {}; measuring on", FIRST_CLOCK_CHECK);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Entry entry : jobs.values()) {
      if (entry.firedHere()) {
        scheduleAfter(entry, entry.fireClock().instant());
      }
    }
    jobs.values().stream()
        .filter(Entry::firedHere)
        .forEach(
            e ->
                log.info(
                    "Job '{}' scheduled ({}, mode={}, store={}, lease-ttl={})",
                    e.status().job(),
                    e.definition().cron(),
                    e.status().settings().mode().configName(),
                    e.status().settings().store(),
                    e.status().settings().leaseTtl()));
  }

  private synchronized void scheduleAfter(Entry entry, Instant after) {
    ScheduledExecutorService pool = executor;
    CronExpression cron = entry.definition().cron();
    if (!firing || pool == null || cron == null || !entry.firedHere()) {
      return;
    }
    ZonedDateTime next = cron.next(after.atZone(ZoneOffset.UTC));
    if (next == null) {
      return;
    }
    Instant at = next.toInstant();
    long delay = Math.max(0, Duration.between(entry.fireClock().instant(), at).toMillis());
    pending.removeIf(ScheduledFuture::isDone);
    pending.add(pool.schedule(() -> fire(entry, at), delay, TimeUnit.MILLISECONDS));
  }

  private void fire(Entry entry, Instant at) {
    try {
      if (firing && entry.running().tryLock()) {
        try {
          entry.decorated().run(JobContext.of(entry.status().job(), at, false, () -> cancelling));
        } finally {
          entry.running().unlock();
        }
      }
    } catch (JobBusyException | JobCancelledException expected) {
      // another instance has the cycle, or shutdown: the decorators measured it
    } catch (Exception e) {
      log.debug("Job '{}' failed (logged by its decorators)", entry.status().job(), e);
    } finally {
      // The next slot after this one, or after now when the store's clock moved back by more
      // than a second (a corrected offset): waiting for the slot after `at` would then idle the
      // job for as long as the clock was off. A slot run already is refused by the store.
      Instant now = entry.fireClock().instant();
      boolean movedBack = Duration.between(now, at).compareTo(Duration.ofSeconds(1)) > 0;
      scheduleAfter(entry, now.isAfter(at) || movedBack ? now : at);
    }
  }

  /**
   * Runs a job now, on the calling thread, under its lease, after this instance's run of it in
   * progress (waited for, bounded). In {@code per-run} mode a run elsewhere is waited for too. A
   * job on another engine is run as that engine does it.
   *
   * @return what the job {@linkplain JobContext#report reported}, or null
   * @throws IllegalArgumentException if no such job exists
   * @throws JobBusyException if another instance holds the lease past the wait
   * @throws JobCancelledException if the service is shutting down
   * @throws Exception whatever the job threw
   */
  public @Nullable Object runNow(String name) throws Exception {
    Entry entry = jobs.get(name);
    if (entry == null) {
      throw new IllegalArgumentException("no job '" + name + "'");
    }
    if (entry.engine() != null) {
      if (cancelling || !firing) {
        throw new JobCancelledException(name);
      }
      return entry.engine().runNow(name);
    }
    long polls = MANUAL_WAIT.toMillis() / POLL.toMillis();
    while (true) {
      if (cancelling || !firing) {
        throw new JobCancelledException(name); // stopping: no new run starts
      }
      if (!entry.running().tryLock(MANUAL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new JobBusyException(name, null);
      }
      try {
        JobContext context = JobContext.of(name, clock.instant(), true, () -> cancelling);
        entry.decorated().run(context);
        return context.result();
      } catch (JobBusyException busy) {
        if (entry.status().settings().mode() == JobMode.LEADER || --polls <= 0) {
          throw busy;
        }
      } finally {
        entry.running().unlock();
      }
      Thread.sleep(POLL.toMillis()); // a per-run lease elsewhere ends with its run
    }
  }

  /** Every job's status on this instance, in declaration order. */
  public Collection<JobStatus> statuses() {
    return jobs.values().stream().map(Entry::status).toList();
  }

  @Override
  public void stop() {
    synchronized (this) {
      firing = false;
      pending.forEach(f -> f.cancel(false));
      pending.clear();
    }
    waitWhileRunning(grace);
    if (anyRunning()) {
      log.warn("Jobs still running after {}; cancelling them", grace);
    }
    cancelling = true;
    waitWhileRunning(CANCEL_WAIT);
    if (anyRunning()) {
      log.warn("Jobs still running {} after they were cancelled", CANCEL_WAIT);
    }
    for (Entry entry : jobs.values()) {
      if (entry.running().isLocked()) {
        // Still running after being cancelled: its lease expires by itself, so that no one else
        // runs the job while this run may still write (its writes carry the fence anyway).
        continue;
      }
      entry.status().releaseHeld();
    }
    ScheduledExecutorService pool = executor;
    if (pool != null) {
      pool.shutdownNow();
    }
    if (clockChecks != null) {
      clockChecks.shutdownNow();
    }
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  private boolean anyRunning() {
    return jobs.values().stream().anyMatch(e -> e.running().isLocked());
  }

  /**
   * Waits, at most {@code limit}, while a job runs. Bounded by a count of real sleeps, not by a
   * clock reading, so a test's settable clock can never make shutdown wait forever.
   */
  private void waitWhileRunning(Duration limit) {
    for (long polls = limit.toMillis() / POLL.toMillis(); polls > 0 && anyRunning(); polls--) {
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
