package io.hotrank.event;

import io.hotrank.core.score.InteractionType;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The interaction events the API accepts. Each moves one counter up or down; like/unlike and
 * collect/uncollect are idempotent per user when the event carries a userId.
 */
public enum EventType {
  LIKE(InteractionType.LIKE, +1, 1),
  UNLIKE(InteractionType.LIKE, -1, 2),
  VIEW(InteractionType.VIEW, +1, 3),
  COMMENT(InteractionType.COMMENT, +1, 4),
  SHARE(InteractionType.SHARE, +1, 5),
  COLLECT(InteractionType.COLLECT, +1, 6),
  UNCOLLECT(InteractionType.COLLECT, -1, 7),
  DISLIKE(InteractionType.DISLIKE, +1, 8);

  /** The accepted wire names, for error messages. */
  static final String WIRE_NAMES =
      Arrays.stream(values()).map(EventType::wireName).collect(Collectors.joining(", "));

  private static final EventType[] BY_CODE = new EventType[values().length + 1];

  static {
    for (EventType t : values()) {
      BY_CODE[t.code] = t;
    }
  }

  private final InteractionType counter;
  private final int step;
  private final int code;

  EventType(InteractionType counter, int step, int code) {
    this.counter = counter;
    this.step = step;
    this.code = code;
  }

  /** The stable number stored in the event log; never reuse one. */
  public int code() {
    return code;
  }

  /** The type stored as {@code code} in the event log. */
  public static EventType ofCode(int code) {
    if (code <= 0 || code >= BY_CODE.length) {
      throw new IllegalArgumentException("no event type has code " + code);
    }
    return BY_CODE[code];
  }

  /** The counter this event moves. */
  public InteractionType counter() {
    return counter;
  }

  /** +1 or -1. */
  public int step() {
    return step;
  }

  /** Whether a userId makes this event idempotent per user (like and collect, and their undo). */
  public boolean perUser() {
    return counter == InteractionType.LIKE || counter == InteractionType.COLLECT;
  }

  /** The name in JSON: like, unlike, view... */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  static Optional<EventType> fromWireName(String name) {
    return Arrays.stream(values()).filter(t -> t.wireName().equals(name)).findFirst();
  }
}
