package io.hotrank.board;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A live operator control of one item on one board. Immutable.
 *
 * @param board the board's name
 * @param itemId the item
 * @param action pin, boost, block or second-chance
 * @param position a pin's rank, 1-based; null for other actions
 * @param factor a boost's factor; null for other actions
 * @param expiresAt when it lapses by itself; null for never
 * @param reason why it was set
 * @param actor the operator who set it
 * @param setAt when it was set (orders pins asking the same position)
 */
public record BoardControl(
    String board,
    long itemId,
    ControlAction action,
    @Nullable Integer position,
    @Nullable Double factor,
    @Nullable Instant expiresAt,
    String reason,
    String actor,
    Instant setAt) {}
