package io.hotrank.board.control;

import io.hotrank.audit.AuditLog;
import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardKey;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.publish.BoardControlStore;
import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.stereotype.Component;

/**
 * The job {@value #NAME}: every second, under its lease (one instance at a time), deletes the
 * controls whose {@code expiresAt} has passed, each board's in one transaction with one {@code
 * control.expire} audit entry per control by {@link AuditLog#SYSTEM}, then re-publishes the boards
 * it changed. Publishes ignore an expired control from its instant on, so a board published in
 * between already shows it lapsed; this job makes the lapse show without waiting for a publish, and
 * keeps the table to the live controls. A control set anew after it was read is left alone (the
 * delete names the {@code set_at} it read).
 */
@Component
class ControlExpiry implements JobSource {

  /** The job's name, its lease's and its key under {@code hotrank.jobs}. */
  static final String NAME = "board-controls-expiry";

  /** Lapsed controls handled per run at most; more wait a second. */
  private static final int BATCH = 500;

  private static final CronExpression EVERY_SECOND = CronExpression.parse("* * * * * *");

  private final BoardControlStore store;
  private final BoardRegistry registry;
  private final ControlService service;
  private final AuditLog audit;
  private final Clock clock;

  ControlExpiry(
      BoardControlStore store,
      BoardRegistry registry,
      ControlService service,
      AuditLog audit,
      Clock clock) {
    this.store = store;
    this.registry = registry;
    this.service = service;
    this.audit = audit;
    this.clock = clock;
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(new JobDefinition(new ExpiryJob(), EVERY_SECOND));
  }

  /**
   * Deletes the controls lapsed by now and re-publishes their boards.
   *
   * @return how many controls lapsed
   */
  int expireNow() {
    long now = clock.millis();
    Map<String, List<BoardControl>> byBoard = new LinkedHashMap<>();
    for (BoardControl control : store.expired(now, BATCH)) {
      byBoard.computeIfAbsent(control.board(), b -> new ArrayList<>()).add(control);
    }
    int lapsed = 0;
    for (Map.Entry<String, List<BoardControl>> board : byBoard.entrySet()) {
      store.ensureLockRow(board.getKey());
      List<Long> released =
          service.inTransaction(
              () -> {
                store.lockBoard(board.getKey());
                List<Long> deleted = new ArrayList<>();
                for (BoardControl control : board.getValue()) {
                  if (store.deleteExpired(control, now)) {
                    audit.record(
                        AuditLog.SYSTEM,
                        "control.expire",
                        ControlService.target(control.board(), control.itemId()),
                        "expired at " + control.expiresAt(),
                        ControlJson.of(control),
                        null);
                    deleted.add(control.itemId());
                  }
                }
                return deleted;
              });
      if (released != null && !released.isEmpty()) {
        lapsed += released.size();
        BoardKey key = BoardKey.parse(board.getKey());
        registry.find(key.board()).ifPresent(b -> service.republish(b, key.segment(), released));
      }
    }
    return lapsed;
  }

  private final class ExpiryJob implements Job {

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public boolean frequent() {
      return true;
    }

    @Override
    public void run(JobContext context) {
      context.report(expireNow());
    }
  }
}
