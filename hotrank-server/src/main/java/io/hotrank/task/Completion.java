package io.hotrank.task;

import org.jspecify.annotations.Nullable;

/**
 * What a finished run writes ({@link TaskStore#complete}), computed by {@link NextRun}.
 *
 * @param owner the instance that ran it (recorded as the run's owner)
 * @param nextTime the task's next fire time; null keeps it
 * @param retryDelayMs when not null, the next fire time is instead the database's now plus this (a
 *     retry, or a run due again at once), so that a delay is never shortened by an instance's
 *     estimate of the database's time
 * @param cycleTime the unfinished cycle's fire time to keep for its retry or re-run, 0 when the
 *     cycle is done, null to keep the column (a run asked for)
 * @param retrigger whether the run must be asked for again (a run asked for, cancelled)
 */
record Completion(
    String task,
    long fence,
    String owner,
    String outcome,
    int runAttempt,
    @Nullable Long nextTime,
    @Nullable Long retryDelayMs,
    @Nullable Long cycleTime,
    boolean retrigger,
    int attempt,
    boolean succeeded,
    boolean failed,
    @Nullable String error) {}
