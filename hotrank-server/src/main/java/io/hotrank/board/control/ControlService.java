package io.hotrank.board.control;

import io.hotrank.audit.AuditLog;
import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardControls;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.ControlAction;
import io.hotrank.board.ControlChange;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.PinLimitException;
import io.hotrank.board.RepublishRetries;
import io.hotrank.board.SecondChanceUsedException;
import io.hotrank.board.SegmentBy;
import io.hotrank.board.publish.BoardControlStore;
import io.hotrank.board.publish.BoardPublisher;
import io.hotrank.item.ItemCards;
import io.hotrank.item.ItemNotFoundException;
import io.hotrank.job.FaultPoints;
import io.hotrank.problem.Violations;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Operators' board controls: validates a change before touching anything, then in ONE transaction
 * takes the board's lock row ({@code SELECT ... FOR UPDATE}, so that changes of one board run one
 * after another on every instance and the pin limit is checked against what is committed), stores
 * the control and appends its audit entry; a failure anywhere rolls both back. After the commit,
 * and only then, it re-publishes the board ({@link BoardPublisher#republish}): see the ordering
 * argument there. A re-publish that fails (Redis or the database unavailable for a moment) is
 * logged, counted ({@code hotrank.board.controls.republish.failures}) and tried again after 1, 2,
 * 4... seconds, at most 30 s apart ({@link RepublishRetries}); the change stays committed
 * meanwhile, and the board's next publish applies it in any case. The retries live in this
 * instance's memory: an instance that stops meanwhile leaves the change to the next publish.
 * Thread-safe.
 */
@Service
class ControlService implements BoardControls {

  private static final Logger log = LoggerFactory.getLogger(ControlService.class);

  /** The name this service's fault points go by ({@link FaultPoints}; tests only). */
  static final String FAULTS = "board-controls";

  /** How many times a change that lost a deadlock is tried in all. */
  private static final int ATTEMPTS = 5;

  /**
   * The smallest and largest boost factors: beyond them a boost is a block or a pin in disguise,
   * and a Reddit board's {@code log10(factor)} stays within a few units of its scores.
   */
  static final double MIN_FACTOR = 1e-6;

  static final double MAX_FACTOR = 1e6;

  /** The furthest an expiry may be: further is a typo, or a control meant to have none. */
  static final Duration MAX_EXPIRY = Duration.ofDays(3653);

  /** The longest reason kept, in characters after stripping. */
  static final int MAX_REASON = 500;

  /** Lists pins first by position and time set, then the others by item id. */
  private static final Comparator<BoardControl> LISTED =
      Comparator.comparing((BoardControl c) -> c.action() != ControlAction.PIN)
          .thenComparing(c -> c.position() == null ? 0 : c.position())
          .thenComparing(BoardControl::setAt)
          .thenComparingLong(BoardControl::itemId);

  private final BoardRegistry registry;
  private final BoardControlStore store;
  private final BoardPublisher publisher;
  private final ItemCards counters;
  private final AuditLog audit;
  private final TransactionTemplate tx;
  private final Clock clock;
  private final MeterRegistry meters;
  private final FaultPoints faults;
  private final RepublishRetries retries;

  ControlService(
      BoardRegistry registry,
      BoardControlStore store,
      BoardPublisher publisher,
      ItemCards counters,
      AuditLog audit,
      PlatformTransactionManager transactions,
      Clock clock,
      MeterRegistry meters,
      FaultPoints faults,
      RepublishRetries retries) {
    this.registry = registry;
    this.store = store;
    this.publisher = publisher;
    this.counters = counters;
    this.audit = audit;
    this.tx = new TransactionTemplate(transactions);
    this.clock = clock;
    this.meters = meters;
    this.faults = faults;
    this.retries = retries;
  }

  @Override
  public List<BoardControl> list(String board, @Nullable String segment) {
    String key = controlled(registry.require(board), segment);
    Instant now = clock.instant();
    return store.all(key).stream()
        .filter(c -> ControlsApplied.live(c, now))
        .sorted(LISTED)
        .toList();
  }

  /**
   * The key a control is stored under: the board's name, or {@code <name>/<segment>} for a segment
   * board's own.
   *
   * @throws io.hotrank.problem.InvalidRequestException if a segment is named on a board that is not
   *     segmented, or could never exist
   */
  private static String controlled(BoardDefinition board, @Nullable String segment) {
    if (segment == null) {
      return board.name();
    }
    if (board.segmentBy() == null) {
      throw new io.hotrank.problem.InvalidRequestException(
          "segment", "board '" + board.name() + "' is not segmented");
    }
    String invalid = board.segmentBy().invalid(segment);
    if (invalid != null) {
      throw new io.hotrank.problem.InvalidRequestException("segment", invalid);
    }
    return BoardSnapshot.key(board.name(), segment);
  }

  @Override
  public BoardControl set(
      String family, @Nullable String segment, long itemId, ControlChange change, String actor) {
    BoardDefinition definition = registry.require(family);
    String board = controlled(definition, segment);
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    String reason = validate(definition, change, now);
    if (counters.cards(definition.biz(), List.of(itemId)).isEmpty()) {
      throw new ItemNotFoundException(definition.biz(), itemId, null);
    }
    // A second chance lasts one window of the board, from now.
    Instant expiresAt =
        change.action() == ControlAction.SECOND_CHANCE
            ? now.plus(definition.window())
            : change.expiresAt();
    BoardControl control =
        new BoardControl(
            board,
            itemId,
            change.action(),
            change.position(),
            change.factor(),
            expiresAt,
            reason,
            actor,
            now);
    store.ensureLockRow(board);
    inTransaction(
        () -> {
          store.lockBoard(board);
          Optional<BoardControl> before = store.find(board, itemId);
          // Moving a live pin is not a new pin: livePins leaves this item out. A lapsed pin not yet
          // deleted counts as no pin, so pinning its item again is checked like any new pin.
          if (control.action() == ControlAction.PIN
              && livePins(board, itemId, now) >= definition.maxPins()) {
            throw new PinLimitException(board, definition.maxPins());
          }
          // Once per item and board definition: a family's segment boards share it.
          if (control.action() == ControlAction.SECOND_CHANCE
              && !store.giveSecondChance(definition.name(), itemId, actor, now)) {
            throw new SecondChanceUsedException(definition.name(), itemId);
          }
          store.put(control, before.isPresent());
          audit.record(
              actor,
              "control.set",
              target(board, itemId),
              reason,
              before.map(ControlJson::of).orElse(null),
              ControlJson.of(control));
          return null;
        });
    republish(definition, segment, List.of(itemId));
    return control;
  }

  @Override
  public boolean remove(
      String family, @Nullable String segment, long itemId, @Nullable String reason, String actor) {
    BoardDefinition definition = registry.require(family);
    String board = controlled(definition, segment);
    String kept = reason == null || reason.isBlank() ? null : reason.strip();
    if (kept != null && kept.length() > MAX_REASON) {
      throw new io.hotrank.problem.InvalidRequestException(
          "reason", "must be at most " + MAX_REASON + " characters");
    }
    store.ensureLockRow(board);
    Boolean removed =
        inTransaction(
            () -> {
              store.lockBoard(board);
              Optional<BoardControl> before = store.find(board, itemId);
              if (before.isEmpty() || !store.delete(board, itemId)) {
                return false;
              }
              audit.record(
                  actor,
                  "control.remove",
                  target(board, itemId),
                  kept,
                  ControlJson.of(before.get()),
                  null);
              return true;
            });
    if (Boolean.TRUE.equals(removed)) {
      republish(definition, segment, List.of(itemId));
      return true;
    }
    return false;
  }

  /**
   * Runs a change of controls in one transaction, again if the database chose it as a deadlock's
   * victim (at most {@value #ATTEMPTS} times in all): the victim's transaction is rolled back
   * whole, so running it again is safe, as the MySQL manual advises. The board's lock row
   * serializes one board's changes; changes of different boards still meet in the table's indexes.
   */
  <T> @Nullable T inTransaction(Supplier<@Nullable T> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        return tx.execute(status -> change.get());
      } catch (PessimisticLockingFailureException deadlocked) {
        if (attempt == ATTEMPTS) {
          throw deadlocked;
        }
        log.info("A control change lost a deadlock; trying again ({})", deadlocked.toString());
      }
    }
  }

  /** The audit target of a control: {@code board:<name>/<itemId>}. */
  static String target(String board, long itemId) {
    return "board:" + board + "/" + itemId;
  }

  /**
   * Re-publishes a board after a committed change; never throws (the change is committed, and the
   * board's next publish applies it).
   */
  void republish(BoardDefinition board, @Nullable String segment, Collection<Long> released) {
    retries.run(board.name(), () -> tryRepublish(board, segment, released));
  }

  /**
   * Re-publishes the board, or the one segment board, a change was made on. A change of a segmented
   * board's own controls re-publishes each segment board its items belong to now.
   */
  private boolean tryRepublish(
      BoardDefinition board, @Nullable String segment, Collection<Long> released) {
    try {
      faults.point(FAULTS, "before-republish", board.name());
      SegmentBy split = board.segmentBy();
      if (segment != null || split == null) {
        publisher.republish(board, segment, released);
        return true;
      }
      java.util.Set<String> segments = new java.util.TreeSet<>();
      counters
          .labels(board.biz(), released)
          .values()
          .forEach(l -> segments.addAll(split.segments(l)));
      for (String each : segments) {
        publisher.republish(board, each, released);
      }
      return true;
    } catch (RuntimeException e) {
      meters
          .counter("hotrank.board.controls.republish.failures", "board", board.name())
          .increment();
      log.warn(
          "Board '{}': re-publish after a control change failed; trying again shortly (its next"
              + " publish applies the change in any case): {}",
          board.name(),
          e.toString());
      return false;
    }
  }

  private long livePins(String board, long except, Instant now) {
    return store.all(board).stream()
        .filter(c -> c.action() == ControlAction.PIN && c.itemId() != except)
        .filter(c -> ControlsApplied.live(c, now))
        .count();
  }

  /**
   * Checks every field of a change against the board, all at once.
   *
   * @return the reason, stripped
   * @throws io.hotrank.problem.InvalidRequestException naming each invalid field
   */
  static String validate(BoardDefinition board, ControlChange change, Instant now) {
    Violations violations = new Violations();
    ControlAction action = change.action();
    if (violations.check(
        action != null, "action", "is required: pin, boost, block or second-chance")) {
      if (action == ControlAction.PIN) {
        Integer position = change.position();
        if (violations.check(position != null, "position", "is required for a pin")) {
          violations.check(
              position >= 1 && position <= board.size(),
              "position",
              "must be between 1 and the board's size, " + board.size());
        }
      } else if (change.position() != null) {
        violations.add("position", "is only for a pin");
      }
      if (action == ControlAction.BOOST) {
        Double factor = change.factor();
        if (violations.check(factor != null, "factor", "is required for a boost")) {
          violations.check(
              factor >= MIN_FACTOR && factor <= MAX_FACTOR,
              "factor",
              "must be between " + MIN_FACTOR + " and " + MAX_FACTOR + " (below 1 demotes)");
        }
      } else if (change.factor() != null) {
        violations.add("factor", "is only for a boost");
      }
      if (action == ControlAction.SECOND_CHANCE) {
        violations.check(
            board.scoresItems(),
            "action",
            "second-chance restarts an item's age: only for boards that score items by age (batch"
                + " and live), not a "
                + board.kind().configName()
                + " board");
        // Their look-ups score an item unscaled and uncapped: a chance would skip both.
        violations.check(
            board.scaleBy() == null && board.maxPerAuthor() == 0,
            "action",
            "second-chance is not for a board with scale-by or max-per-author");
        if (change.expiresAt() != null) {
          violations.add(
              "expiresAt", "is not for a second chance: it lasts one window of the board");
        }
      }
    }
    if (change.expiresAt() != null && action != ControlAction.SECOND_CHANCE) {
      if (violations.check(change.expiresAt().isAfter(now), "expiresAt", "must be in the future")) {
        violations.check(
            !change.expiresAt().isAfter(now.plus(MAX_EXPIRY)),
            "expiresAt",
            "must be at most 10 years ahead");
      }
    }
    String reason = change.reason() == null ? "" : change.reason().strip();
    violations.check(
        !reason.isEmpty() && reason.length() <= MAX_REASON,
        "reason",
        "is required, 1 to " + MAX_REASON + " characters");
    violations.throwIfAny();
    return reason;
  }
}
