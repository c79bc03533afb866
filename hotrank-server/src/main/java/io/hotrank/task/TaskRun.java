package io.hotrank.task;

import org.jspecify.annotations.Nullable;

/**
 * A finished, abandoned or skipped run: a row of {@code hr_task_run}, or of a task's ring of recent
 * successful runs ({@code hr_task_recent}), which has no id.
 */
record TaskRun(
    @Nullable Long id,
    String task,
    long fireTime,
    long startedAt,
    long endedAt,
    String outcome,
    String owner,
    long fence,
    int attempt,
    boolean manual,
    @Nullable String error) {}
