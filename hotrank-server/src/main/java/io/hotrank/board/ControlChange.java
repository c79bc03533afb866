package io.hotrank.board;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What an operator asks for one item of one board (the body of {@code PUT
 * /api/v1/admin/boards/{name}/controls/{itemId}}), validated by {@link BoardControls#set}.
 *
 * @param action pin, boost, block or second-chance; required (nullable so that validation names it)
 * @param position a pin's rank, 1-based; only for pins
 * @param factor a boost's factor, above 0 (below 1 demotes); only for boosts
 * @param expiresAt when the control lapses by itself; null for never
 * @param reason why, 1..500 characters after stripping, kept in the audit log; required
 */
public record ControlChange(
    @Nullable ControlAction action,
    @Nullable Integer position,
    @Nullable Double factor,
    @Nullable Instant expiresAt,
    @Nullable String reason) {}
