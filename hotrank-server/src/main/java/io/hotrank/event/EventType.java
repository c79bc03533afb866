package io.hotrank.event;

import io.hotrank.core.score.InteractionType;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The interaction events the API accepts. Each moves one counter up or down; like/unlike and
 * collect/uncollect are idempotent per user when the event carries a userId.
 */
enum EventType {
  LIKE(InteractionType.LIKE, +1),
  UNLIKE(InteractionType.LIKE, -1),
  VIEW(InteractionType.VIEW, +1),
  COMMENT(InteractionType.COMMENT, +1),
  SHARE(InteractionType.SHARE, +1),
  COLLECT(InteractionType.COLLECT, +1),
  UNCOLLECT(InteractionType.COLLECT, -1),
  DISLIKE(InteractionType.DISLIKE, +1);

  /** The accepted wire names, for error messages. */
  static final String WIRE_NAMES =
      Arrays.stream(values()).map(EventType::wireName).collect(Collectors.joining(", "));

  private final InteractionType counter;
  private final int step;

  EventType(InteractionType counter, int step) {
    this.counter = counter;
    this.step = step;
  }

  /** The counter this event moves. */
  InteractionType counter() {
    return counter;
  }

  /** +1 or -1. */
  int step() {
    return step;
  }

  /** Whether a userId makes this event idempotent per user (like and collect, and their undo). */
  boolean perUser() {
    return counter == InteractionType.LIKE || counter == InteractionType.COLLECT;
  }

  String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  static Optional<EventType> fromWireName(String name) {
    return Arrays.stream(values()).filter(t -> t.wireName().equals(name)).findFirst();
  }
}
