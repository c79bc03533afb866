package io.hotrank.task;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The body of {@code POST /api/v1/admin/tasks} and {@code PUT /api/v1/admin/tasks/{name}}. Every
 * field is nullable so that validation, not binding, says what is wrong; on PUT an absent field
 * keeps its value.
 *
 * @param name the task's name (POST only)
 * @param job the job it runs; on POST defaults to the name
 * @param cron a six-field cron expression (seconds first), or null for an interval
 * @param zone the cron's time zone ({@code UTC} by default)
 * @param interval a fixed interval instead of a cron ({@code 30s}, {@code PT5M})
 * @param misfire {@code skip} or {@code fire-once}
 * @param timeout how long a run may take before it is cancelled
 * @param maxRetries how often a failed run is retried before the next cycle
 * @param retryBackoff the first retry's delay, doubled for each further one
 * @param parameters a JSON object handed to each run
 * @param paused whether it is created paused (POST only; use pause and resume after)
 */
record TaskRequest(
    @Nullable String name,
    @Nullable String job,
    @Nullable String cron,
    @Nullable String zone,
    @Nullable String interval,
    @Nullable String misfire,
    @Nullable String timeout,
    @Nullable Integer maxRetries,
    @Nullable String retryBackoff,
    @io.swagger.v3.oas.annotations.media.Schema(
            implementation = java.util.Map.class,
            description = "A JSON object handed to each run, as the job reads it")
        @Nullable JsonNode parameters,
    @Nullable Boolean paused) {}
