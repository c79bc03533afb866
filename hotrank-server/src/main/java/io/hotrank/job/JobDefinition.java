package io.hotrank.job;

import org.jspecify.annotations.Nullable;
import org.springframework.scheduling.support.CronExpression;

/**
 * A job and when it fires.
 *
 * @param job the work
 * @param cron when it fires (evaluated in UTC), or null for a job run only on demand
 */
public record JobDefinition(Job job, @Nullable CronExpression cron) {}
