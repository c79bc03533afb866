package io.hotrank.audit;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One audited change.
 *
 * @param id increasing with the order entries were written (the database's identity)
 * @param at when the change was made
 * @param actor the operator's name ({@code hotrank.admin.operators[i].name}), or {@code system} for
 *     a change the service made by itself (a control's expiry)
 * @param action what was done, {@code <capability>.<verb>}: {@code control.set}, {@code
 *     control.remove}, {@code control.expire}, {@code task.pause}, {@code board.recompute}...
 * @param target what it was done to, {@code <kind>:<name>[/<sub>]}: {@code board:hot/42}, {@code
 *     task:nightly}, {@code board:hot}
 * @param reason the reason the operator gave, if any
 * @param before the target's state before, as JSON; null when it did not exist
 * @param after the target's state after, as JSON; null when it no longer exists
 */
public record AuditEntry(
    long id,
    Instant at,
    String actor,
    String action,
    String target,
    @Nullable String reason,
    @Nullable String before,
    @Nullable String after) {}
