/**
 * Realtime boards kept in Redis by the fold of the event log: window boards ({@code type: window},
 * per-bucket sorted sets merged into a snapshot once per bucket, {@link
 * io.hotrank.realtime.WindowStore}) and leaderboards ({@code type: leaderboard}, one counter's
 * absolute values in sharded sorted sets, {@link io.hotrank.realtime.LeaderboardStore}). Each fold
 * is applied once ({@link io.hotrank.realtime.RealtimeFolds}); the read snapshot is published
 * through the batch boards' path every second. Builds on boards, ingest, items, jobs and the Redis
 * layer.
 */
@ApplicationModule(
    allowedDependencies = {"audit", "board", "event", "ingest", "item", "job", "redis", "web"})
@NullMarked
package io.hotrank.realtime;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
