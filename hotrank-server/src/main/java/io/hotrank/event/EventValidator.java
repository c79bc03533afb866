package io.hotrank.event;

import io.hotrank.item.ItemService;
import io.hotrank.problem.Violations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Validates a batch of events as a whole, naming every invalid field. */
public final class EventValidator {

  /** The most events one batch may hold. */
  public static final int MAX_EVENTS = 1000;

  /** How far in the future an event's {@code at} may lie (clocks disagree a little). */
  static final Duration FUTURE_TOLERANCE = Duration.ofMinutes(5);

  /** The earliest {@code at} an event may carry: the epoch, as for an item's createdAt. */
  public static final Instant EARLIEST = Instant.EPOCH;

  /** What an event's {@code id} may be. */
  public static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

  private EventValidator() {}

  /**
   * The batch's events, validated; {@code at} defaults to {@code now}.
   *
   * @throws io.hotrank.problem.InvalidRequestException naming every invalid field
   */
  public static List<Event> validate(EventBatch batch, Instant now) {
    Violations violations = new Violations();
    List<EventBatch.Event> events = batch == null ? null : batch.events();
    if (!violations.check(events != null, "events", "is required")) {
      violations.throwIfAny();
    }
    violations.check(!events.isEmpty(), "events", "must hold at least one event");
    violations.check(
        events.size() <= MAX_EVENTS,
        "events",
        "must hold at most " + MAX_EVENTS + " events, was " + events.size());
    violations.throwIfAny();
    Instant latest = now.plus(FUTURE_TOLERANCE);
    List<Event> accepted = new ArrayList<>(events.size());
    for (int i = 0; i < events.size(); i++) {
      EventBatch.Event e = events.get(i);
      String at = "events[" + i + "]";
      if (!violations.check(e != null, at, "must be an object")) {
        continue;
      }
      ItemService.validateBiz(e.biz(), at + ".biz", violations);
      if (violations.check(e.itemId() != null, at + ".itemId", "is required")) {
        ItemService.validateId(e.itemId(), at + ".itemId", violations);
      }
      EventType type = null;
      if (violations.check(e.type() != null, at + ".type", "is required")) {
        type = EventType.fromWireName(e.type()).orElse(null);
        violations.check(
            type != null,
            at + ".type",
            "unknown type '" + e.type() + "'; expected one of " + EventType.WIRE_NAMES);
      }
      if (e.id() != null) {
        violations.check(
            ID.matcher(e.id()).matches(),
            at + ".id",
            "must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', ':' and '-'");
      }
      if (e.userId() != null) {
        violations.check(e.userId() > 0, at + ".userId", "must be a positive integer");
      }
      if (e.at() != null) {
        violations.check(
            !e.at().isAfter(latest),
            at + ".at",
            "must not lie more than " + FUTURE_TOLERANCE.toMinutes() + " minutes in the future");
        // Also keeps toEpochMilli below from overflowing on a far past.
        violations.check(!e.at().isBefore(EARLIEST), at + ".at", "must not be before " + EARLIEST);
      }
      if (violations.isEmpty()) {
        long userId = e.userId() == null ? 0 : e.userId();
        long atMillis = (e.at() == null ? now : e.at()).toEpochMilli();
        accepted.add(new Event(i, e.biz(), e.itemId(), type, userId, atMillis, e.id()));
      }
    }
    violations.throwIfAny();
    return accepted;
  }
}
