/**
 * Internal to boards: computing a board. {@link io.hotrank.board.compute.BoardComputer} walks the
 * window with keyset pages, scores each item and keeps the Top-N in a bounded heap; {@link
 * io.hotrank.board.compute.BoardJobs} declares each board's computation as a job ({@code
 * board-<name>}) that the job scheduler fires on the board's cron under a lease, and publishes its
 * result under the lease's fencing token; the admin endpoint runs it on demand.
 */
@NullMarked
package io.hotrank.board.compute;

import org.jspecify.annotations.NullMarked;
