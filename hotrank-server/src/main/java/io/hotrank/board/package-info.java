/**
 * Boards: ranked hot lists declared in configuration ({@code hotrank.boards}), computed in the
 * background, published as immutable snapshots and served from memory. This package is the API
 * other capabilities may use: definitions and their registry, the snapshot and its entries, the
 * {@link io.hotrank.board.BoardInstalled} event, settings and exceptions. Its sub-packages are
 * internal (enforced by {@code ModulesTest}; their layering by {@code ArchitectureRulesTest}):
 * {@code publish} (layers and replication), {@code compute} (scan, rank, schedule) and {@code read}
 * (the read path and its HTTP), with compute and read both built on publish.
 *
 * <h2>The version protocol</h2>
 *
 * <ol>
 *   <li><b>Sequence.</b> A publish takes its version from a per-board Redis counter by a script
 *       ({@code next-board-version.lua}) that first raises the counter to a <i>floor</i>: the
 *       newest version this instance or the database snapshot knows. Versions are therefore unique
 *       across instances sharing a Redis, and a Redis restarted empty never hands out a number
 *       already used. With Redis down, the version is floor + 1, which instances publishing at the
 *       same moment can share; the leases of the scheduling work rule that out.
 *   <li><b>Staged swap.</b> The payload is written to a fresh key with a TTL, then one script
 *       ({@code publish-board.lua}) swaps it live only if its version is newer than the live one,
 *       sets the live version, and announces it. A stalled publisher's older version is dropped,
 *       never served; the payload and the version number always belong to the same publish.
 *   <li><b>Layers.</b> After Redis, the snapshot becomes this instance's local one and is saved to
 *       {@code hr_board_snapshot} by an update guarded by the version. A failing layer is logged
 *       and counted; the others still serve.
 *   <li><b>Notices.</b> Every publish is announced on Pub/Sub as "{@code <board> <version>}"; an
 *       instance holding an older version fetches the newer one from Redis at once.
 *   <li><b>Periodic check.</b> Pub/Sub loses messages while disconnected, so every instance
 *       compares each board's version with Redis and the database every {@code
 *       hotrank.board.check-interval} and at once on reconnect, fetches what is newer, and writes
 *       its own newer version back to a Redis that lost it.
 * </ol>
 */
@ApplicationModule(
    allowedDependencies = {"audit", "cache", "hotkey", "ingest", "item", "job", "redis", "web"})
@NullMarked
package io.hotrank.board;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
