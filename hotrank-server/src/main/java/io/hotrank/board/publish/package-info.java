/**
 * Internal to boards: the layers a snapshot lives in and how they converge. {@link
 * io.hotrank.board.publish.LocalBoards} holds each board's newest snapshot in memory; {@link
 * io.hotrank.board.publish.BoardRedisStore} and {@link io.hotrank.board.publish.BoardSnapshotStore}
 * own the Redis keys and the {@code hr_board_snapshot} table; {@link
 * io.hotrank.board.publish.BoardPublisher} writes a new version to all three (see the version
 * protocol in {@code io.hotrank.board}); {@link io.hotrank.board.publish.SnapshotSources} reads the
 * remote layers; {@code BoardSync} keeps this instance converged through notices and the periodic
 * version check. Knows neither computing nor reading.
 */
@NullMarked
package io.hotrank.board.publish;

import org.jspecify.annotations.NullMarked;
