package io.hotrank.board.compute;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardNotFoundException;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.ComputationAbandonedException;
import io.hotrank.board.publish.BoardPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs board computations and publishes their results, one at a time per board in this instance.
 * Scheduled runs skip a board whose previous run is still going; explicit recomputes wait for it.
 * Once {@link #abandonRunning()} is called (shutdown), running computations stop at their next scan
 * page without publishing, and no new one starts. Thread-safe.
 */
@Component
public class BoardRecomputer {

  private static final Logger log = LoggerFactory.getLogger(BoardRecomputer.class);

  private final BoardRegistry registry;
  private final BoardComputer computer;
  private final BoardPublisher publisher;
  private final Clock clock;
  private final MeterRegistry meters;
  private final Map<String, ReentrantLock> running = new ConcurrentHashMap<>();

  /**
   * Computation timers per board and outcome, registered up front: nothing on a computation's path
   * creates a meter, which would resolve beans of a context that shutdown may have closed.
   */
  private final Map<String, Map<String, Timer>> timers = new HashMap<>();

  private volatile boolean abandoning;

  BoardRecomputer(
      BoardRegistry registry,
      BoardComputer computer,
      BoardPublisher publisher,
      Clock clock,
      MeterRegistry meters) {
    this.registry = registry;
    this.computer = computer;
    this.publisher = publisher;
    this.clock = clock;
    this.meters = meters;
    for (BoardDefinition board : registry.all()) {
      Map<String, Timer> byOutcome = new HashMap<>();
      for (String outcome : List.of("published", "abandoned", "failed")) {
        byOutcome.put(
            outcome,
            meters.timer("hotrank.board.compute", "board", board.name(), "outcome", outcome));
      }
      timers.put(board.name(), byOutcome);
    }
  }

  /**
   * Computes and publishes a board now, waiting for a run of the same board in progress.
   *
   * @throws BoardNotFoundException if no such board is configured
   * @throws ComputationAbandonedException if the service is shutting down
   */
  public BoardSnapshot recompute(String name) {
    BoardDefinition board = registry.require(name);
    ReentrantLock lock = lockOf(board);
    lock.lock();
    try {
      return run(board, "request");
    } finally {
      lock.unlock();
    }
  }

  /** A scheduled run: skipped, and empty, if a run of the same board is in progress. */
  Optional<BoardSnapshot> recomputeIfIdle(BoardDefinition board) {
    ReentrantLock lock = lockOf(board);
    if (!lock.tryLock()) {
      log.info("Board '{}': previous run still in progress, skipping this trigger", board.name());
      return Optional.empty();
    }
    try {
      return Optional.of(run(board, "schedule"));
    } finally {
      lock.unlock();
    }
  }

  /** Makes running and future computations stop before publishing. */
  void abandonRunning() {
    abandoning = true;
  }

  /** Whether any computation holds its board's lock. */
  boolean anyRunning() {
    return running.values().stream().anyMatch(ReentrantLock::isLocked);
  }

  private BoardSnapshot run(BoardDefinition board, String trigger) {
    Timer.Sample sample = Timer.start(meters);
    String outcome = "abandoned";
    try {
      BoardComputer.Result result =
          computer.compute(board, clock.instant().truncatedTo(ChronoUnit.MILLIS), () -> abandoning);
      if (abandoning) {
        throw new ComputationAbandonedException(board.name());
      }
      BoardSnapshot published = publisher.publish(board, result.computedAt(), result.entries());
      outcome = "published";
      log.info(
          "Board '{}' v{} published ({} entries from {} scanned, trigger={})",
          board.name(),
          published.version(),
          published.size(),
          result.scanned(),
          trigger);
      return published;
    } catch (RuntimeException e) {
      outcome = e instanceof ComputationAbandonedException ? "abandoned" : "failed";
      throw e;
    } finally {
      sample.stop(timers.get(board.name()).get(outcome));
    }
  }

  private ReentrantLock lockOf(BoardDefinition board) {
    return running.computeIfAbsent(board.name(), n -> new ReentrantLock());
  }
}
