/**
 * Review: boards an operator vets before the public sees them ({@code hotrank.boards[i].review}).
 * Every publish of a board under review asks {@link io.hotrank.board.BoardReview} which candidates
 * to hold: those an operator rejected, those pending review (every item without an approval on a
 * {@code required} board; those that look bought, {@link Suspicion}, on a {@code suspicious} one),
 * and queues the held ones that would rank near the top with their evidence. Decisions are per item
 * or per author (the item's wins), stored with their audit entry, and re-publish the boards they
 * change at once, so that every instance serves them through the usual notices. Builds on boards,
 * items, the fold's record of who acted ({@link io.hotrank.ingest.Engagement}) and trust.
 */
@ApplicationModule(
    allowedDependencies = {"audit", "board", "ingest", "item", "storage", "trust", "web"})
@NullMarked
package io.hotrank.review;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
