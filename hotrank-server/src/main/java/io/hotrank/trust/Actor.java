package io.hotrank.trust;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An actor as the API shows it.
 *
 * @param userId the events' {@code userId}
 * @param createdAt when the platform created the account; null when the platform never sent the
 *     actor and an operator flagged it
 * @param bot whether the platform says the account is a bot
 * @param trust the platform's trust in the account, 0 to 1
 * @param flag the operator's flag, or null when not flagged
 * @param updatedAt when the platform or an operator last changed the actor
 */
public record Actor(
    long userId,
    @Nullable Instant createdAt,
    boolean bot,
    double trust,
    @Nullable Flag flag,
    Instant updatedAt) {

  /** An operator's flag: the actor's interactions count for nothing. */
  public record Flag(String reason, String by, Instant at) {}

  /** Whether the platform sent the actor (an operator may flag one it never did). */
  public boolean known() {
    return createdAt != null;
  }
}
