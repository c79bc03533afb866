/**
 * Internal to boards: computing a board. {@link io.hotrank.board.compute.BoardComputer} walks the
 * window with keyset pages, scores each item and keeps the Top-N in a bounded heap; {@link
 * io.hotrank.board.compute.BoardRecomputer} runs one computation per board at a time and publishes
 * it; {@code BoardScheduler} triggers each board on its cron and, on shutdown, gives running
 * computations a grace period before they abandon without publishing; the admin endpoint recomputes
 * on demand.
 */
@NullMarked
package io.hotrank.board.compute;

import org.jspecify.annotations.NullMarked;
