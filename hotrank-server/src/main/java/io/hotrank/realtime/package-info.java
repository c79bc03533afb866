/**
 * Realtime boards kept in Redis by the fold of the events, one class per kind ({@link
 * io.hotrank.realtime.RealtimeKind}): live boards ({@link io.hotrank.realtime.LiveBoards}), window
 * boards ({@link io.hotrank.realtime.WindowBoards}, per-bucket sorted sets merged into a snapshot
 * once per bucket) and leaderboards ({@link io.hotrank.realtime.Leaderboards}, one counter's
 * absolute values in sharded sorted sets); segmented, their families ({@link
 * io.hotrank.realtime.LiveFamilies} for live boards and leaderboards, {@link
 * io.hotrank.realtime.WindowFamilies} for window boards), a board per segment. Each fold is handed
 * to every board's kind once ({@link io.hotrank.realtime.RealtimeFolds}); each board's read
 * snapshot is published through the batch boards' path every second ({@link
 * io.hotrank.realtime.RealtimeJobs}). Builds on boards, ingest, items, jobs and the Redis layer.
 */
@ApplicationModule(
    allowedDependencies = {"audit", "board", "event", "ingest", "item", "job", "redis", "web"})
@NullMarked
package io.hotrank.realtime;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
