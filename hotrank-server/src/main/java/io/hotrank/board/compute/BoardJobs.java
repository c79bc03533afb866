package io.hotrank.board.compute;

import io.hotrank.audit.AuditLog;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardNotFoundException;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.FamilyPublished;
import io.hotrank.board.publish.BoardPublisher;
import io.hotrank.board.publish.BoardSnapshotStore;
import io.hotrank.job.FaultPoints;
import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobScheduler;
import io.hotrank.job.JobSource;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.stereotype.Component;

/**
 * Each board's computation as a job named {@code board-<board name>}, fired on the board's cron
 * when {@code hotrank.board.scheduling} is on and run on demand over HTTP either way. A run scans
 * and ranks, stops without publishing if its lease was lost or the service is stopping, and
 * publishes under its lease's fencing token.
 */
@Component
public class BoardJobs implements JobSource {

  private static final Logger log = LoggerFactory.getLogger(BoardJobs.class);

  /** The job name of a board. */
  public static String jobName(String board) {
    return "board-" + board;
  }

  private final BoardRegistry registry;
  private final BoardComputer computer;
  private final BoardPublisher publisher;
  private final Clock clock;
  private final boolean scheduling;
  private final ObjectProvider<JobScheduler> scheduler;
  private final FaultPoints faults;
  private final AuditLog audit;
  private final BoardSnapshotStore database;

  BoardJobs(
      BoardRegistry registry,
      BoardComputer computer,
      BoardPublisher publisher,
      Clock clock,
      BoardProperties properties,
      ObjectProvider<JobScheduler> scheduler,
      FaultPoints faults,
      AuditLog audit,
      BoardSnapshotStore database) {
    this.database = database;
    this.registry = registry;
    this.computer = computer;
    this.publisher = publisher;
    this.clock = clock;
    this.scheduling = properties.scheduling();
    this.scheduler = scheduler;
    this.faults = faults;
    this.audit = audit;
    if (!scheduling) {
      log.info("Board scheduling is off (hotrank.board.scheduling=false)");
    }
  }

  @Override
  public List<JobDefinition> jobs() {
    return registry.all().stream()
        .filter(board -> !board.realtime()) // io.hotrank.realtime publishes those
        .map(
            board ->
                new JobDefinition(
                    new BoardJob(board), scheduling ? CronExpression.parse(board.refresh()) : null))
        .toList();
  }

  /**
   * Computes and publishes a board now, under its lease, after a run of it in progress.
   *
   * @throws BoardNotFoundException if no such board is configured
   * @throws io.hotrank.job.JobBusyException if another instance holds the lease
   * @throws io.hotrank.job.JobCancelledException if the lease was lost or the service is stopping
   * @throws io.hotrank.board.StalePublishException if a newer lease holder published meanwhile
   */
  public BoardSnapshot recompute(String name) {
    if (!(runNow(name) instanceof BoardSnapshot snapshot)) {
      throw new IllegalStateException("board " + name + " is segmented: recompute its family");
    }
    return snapshot;
  }

  /**
   * Computes and publishes every segment board of a segmented board now, as {@link
   * #recompute(String)} does for a board that is one board.
   *
   * @throws IllegalStateException if the board is not segmented
   */
  public FamilyPublished recomputeFamily(String name) {
    if (!(runNow(name) instanceof FamilyPublished published)) {
      throw new IllegalStateException("board " + name + " is not segmented");
    }
    return published;
  }

  private Object runNow(String name) {
    BoardDefinition board = registry.require(name);
    Object published;
    try {
      published = scheduler.getObject().runNow(jobName(board.name()));
    } catch (RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while recomputing " + name, e);
    } catch (Exception e) {
      throw new IllegalStateException("recomputing " + name + " failed", e);
    }
    if (published == null) {
      throw new IllegalStateException("board job " + name + " reported nothing");
    }
    return published;
  }

  /**
   * {@link #recompute(String)} on an operator's request, audited once published (action {@code
   * board.recompute}, target {@code board:<name>}, before and after {@code {"version": n}}, before
   * null when this instance held no version). A recompute that fails writes no entry; one whose
   * entry cannot be written has published all the same, and fails with the database's error (503).
   *
   * @param actor the operator's name
   * @param reason why, or null
   */
  public Recomputed recompute(String name, String actor, @Nullable String reason) {
    if (registry.require(name).segmented()) {
      FamilyPublished published = recomputeFamily(name);
      audit.record(
          actor,
          "board.recompute",
          "board:" + name,
          reason,
          null,
          Map.of("segments", published.segments(), "emptied", published.emptied()));
      return new Recomputed(
          name, null, published.computedAt(), null, published.segments(), published.emptied());
    }
    BoardSnapshot before = publisher.current(name);
    BoardSnapshot published = recompute(name);
    audit.record(
        actor,
        "board.recompute",
        "board:" + name,
        reason,
        before == null ? null : Map.of("version", before.version()),
        Map.of("version", published.version(), "size", published.size()));
    return new Recomputed(
        name, published.version(), published.computedAt(), published.size(), null, null);
  }

  /**
   * What a recompute published: a board's version and size, or a family's segment boards.
   *
   * @param version the version published; absent for a segmented board
   * @param size its entries; absent for a segmented board
   * @param segments the segment boards published; only for a segmented board
   * @param emptied the segment boards emptied (none of their items left); only for a segmented
   *     board
   */
  @com.fasterxml.jackson.annotation.JsonInclude(
      com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
  @io.swagger.v3.oas.annotations.media.Schema(name = "Recomputed")
  public record Recomputed(
      String board,
      @Nullable Long version,
      java.time.Instant computedAt,
      @Nullable Integer size,
      @Nullable Integer segments,
      @Nullable Integer emptied) {}

  /** One board's computation. */
  private final class BoardJob implements Job {

    private final BoardDefinition board;
    private final String name;

    BoardJob(BoardDefinition board) {
      this.board = board;
      this.name = jobName(board.name());
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public void run(JobContext context) {
      if (board.segmented()) {
        context.report(runFamily(context));
        return;
      }
      BoardComputer.Result result =
          computer.compute(
              board, clock.instant().truncatedTo(ChronoUnit.MILLIS), context::cancelled);
      context.throwIfCancelled();
      faults.point(name, "before-publish", "fence=" + context.fence());
      BoardSnapshot published =
          publisher.publish(board, result.computedAt(), result.entries(), context.fence());
      if (published.computedAt().equals(result.computedAt())) {
        log.info(
            "Board '{}' v{} published ({} entries from {} scanned, computed {}, fence {})",
            board.name(),
            published.version(),
            published.size(),
            result.scanned(),
            published.computedAt(),
            context.fence());
      }
      context.report(published);
    }

    /**
     * Computes every segment in one pass, publishes each, then empties the segments stored with
     * entries that the pass found none for (their items left the window or the segment), so that a
     * segment board never shows items it lost.
     */
    private FamilyPublished runFamily(JobContext context) {
      BoardComputer.FamilyResult result =
          computer.computeFamily(
              board, clock.instant().truncatedTo(ChronoUnit.MILLIS), context::cancelled);
      context.throwIfCancelled();
      faults.point(name, "before-publish", "fence=" + context.fence());
      List<String> stored;
      try {
        stored = database.segmentsWithEntries(board.name());
      } catch (RuntimeException e) {
        // The segments are published all the same; the next run empties the ones left over.
        log.warn("Board '{}': stored segments unreadable ({})", board.name(), e.toString());
        stored = List.of();
      }
      Map<String, List<BoardEntry>> work = new LinkedHashMap<>(result.segments());
      int emptied = 0;
      for (String segment : stored) {
        if (work.putIfAbsent(segment, List.of()) == null) {
          emptied++;
        }
      }
      publisher.publishSegments(
          board, work, result.computedAt(), context.fence(), context::cancelled);
      context.throwIfCancelled();
      log.info(
          "Board '{}': {} segment boards published, {} emptied ({} rows scanned, computed {},"
              + " fence {})",
          board.name(),
          result.segments().size(),
          emptied,
          result.scanned(),
          result.computedAt(),
          context.fence());
      return new FamilyPublished(
          board.name(), result.computedAt(), result.segments().size(), emptied, result.scanned());
    }
  }
}
