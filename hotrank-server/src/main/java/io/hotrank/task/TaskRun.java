package io.hotrank.task;

import org.jspecify.annotations.Nullable;

/** One row of {@code hr_task_run}: a finished, abandoned or skipped run. */
record TaskRun(
    long id,
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
