package io.hotrank.task;

import io.hotrank.problem.Violations;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.scheduling.support.CronExpression;
import tools.jackson.databind.JsonNode;

/**
 * Turns a {@link TaskRequest} into a task definition, or refuses it naming every bad field. A new
 * task's next fire time is the first after the database's time now.
 */
final class TaskDefinitions {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final int PARAMETERS_LENGTH = 4000;
  private static final int MAX_RETRIES = 100;
  private static final int CRON_LENGTH = 120;
  private static final Duration LONGEST_INTERVAL = Duration.ofDays(366);
  private static final Duration LONGEST_TIMEOUT = Duration.ofDays(7);
  private static final Duration LONGEST_BACKOFF = Duration.ofDays(1);

  private final Set<String> jobs;
  private final TaskProperties defaults;

  TaskDefinitions(Set<String> jobs, TaskProperties defaults) {
    this.jobs = jobs;
    this.defaults = defaults;
  }

  /** The definition of a task to create. */
  TaskRow create(TaskRequest request, long now) {
    Violations violations = new Violations();
    String name = request.name();
    if (violations.check(name != null, "name", "is required")) {
      violations.check(
          NAME.matcher(name).matches(),
          "name",
          "must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }
    String job = request.job() != null ? request.job() : name;
    return define(
        violations,
        request,
        name == null ? "" : name,
        job,
        request.cron(),
        request.zone() == null ? "UTC" : request.zone(),
        request.interval(),
        Misfire.SKIP,
        defaults.timeout().toMillis(),
        defaults.maxRetries(),
        defaults.retryBackoff().toMillis(),
        "{}",
        Boolean.TRUE.equals(request.paused()),
        now);
  }

  /** The definition of an existing task changed by a request; absent fields keep their value. */
  TaskRow update(TaskRow current, TaskRequest request, long now) {
    Violations violations = new Violations();
    violations.check(
        request.name() == null || request.name().equals(current.name()),
        "name",
        "cannot change; create a new task and delete this one");
    violations.check(request.paused() == null, "paused", "use the pause and resume actions");
    boolean newSchedule = request.cron() != null || request.interval() != null;
    return define(
        violations,
        request,
        current.name(),
        request.job() != null ? request.job() : current.job(),
        newSchedule ? request.cron() : current.cron(),
        request.zone() != null ? request.zone() : current.zone(),
        newSchedule ? request.interval() : intervalText(current.intervalMs()),
        current.misfire(),
        current.timeoutMs(),
        current.maxRetries(),
        current.retryBackoffMs(),
        current.parameters(),
        current.paused(),
        now);
  }

  private TaskRow define(
      Violations violations,
      TaskRequest request,
      String name,
      @Nullable String job,
      @Nullable String cron,
      String zone,
      @Nullable String interval,
      Misfire misfire,
      long timeoutMs,
      int maxRetries,
      long retryBackoffMs,
      String parameters,
      boolean paused,
      long now) {
    if (violations.check(job != null, "job", "is required")) {
      violations.check(
          jobs.contains(job),
          "job",
          "no such job on this instance; known: " + jobs.stream().sorted().toList());
    }
    if (cron != null
        && violations.check(
            cron.length() <= CRON_LENGTH,
            "cron",
            "must be at most " + CRON_LENGTH + " characters")) {
      try {
        CronExpression.parse(cron);
      } catch (IllegalArgumentException e) {
        violations.add(
            "cron", "not a cron expression (six fields, seconds first): " + e.getMessage());
      }
    }
    try {
      ZoneId.of(zone);
    } catch (DateTimeException e) {
      violations.add("zone", "not a time zone id (such as UTC or Europe/Berlin): " + zone);
    }
    Long intervalMs = null;
    if (interval != null) {
      Duration parsed = duration(violations, "interval", interval, LONGEST_INTERVAL);
      if (parsed != null
          && violations.check(parsed.toMillis() >= 1000, "interval", "must be at least 1s")) {
        intervalMs = parsed.toMillis();
      }
      violations.check(cron == null, "interval", "give either cron or interval, not both");
    }
    if (request.misfire() != null) {
      Misfire parsed = Misfire.parse(request.misfire());
      if (violations.check(parsed != null, "misfire", "must be 'skip' or 'fire-once'")) {
        misfire = parsed;
      }
    }
    if (request.timeout() != null) {
      Duration parsed = duration(violations, "timeout", request.timeout(), LONGEST_TIMEOUT);
      if (parsed != null
          && violations.check(parsed.toMillis() >= 1, "timeout", "must be positive")) {
        timeoutMs = parsed.toMillis();
      }
    }
    if (request.maxRetries() != null) {
      if (violations.check(
          request.maxRetries() >= 0 && request.maxRetries() <= MAX_RETRIES,
          "maxRetries",
          "must be 0 to " + MAX_RETRIES)) {
        maxRetries = request.maxRetries();
      }
    }
    if (request.retryBackoff() != null) {
      Duration parsed =
          duration(violations, "retryBackoff", request.retryBackoff(), LONGEST_BACKOFF);
      if (parsed != null
          && violations.check(!parsed.isNegative(), "retryBackoff", "must not be negative")) {
        retryBackoffMs = parsed.toMillis();
      }
    }
    JsonNode given = request.parameters();
    if (given != null
        && violations.check(given.isObject(), "parameters", "must be a JSON object")) {
      parameters = given.toString();
      violations.check(
          parameters.length() <= PARAMETERS_LENGTH,
          "parameters",
          "must be at most " + PARAMETERS_LENGTH + " characters as JSON");
    }
    violations.throwIfAny();
    return TaskRow.definition(
        name,
        job,
        cron,
        zone,
        intervalMs,
        paused,
        Schedule.of(cron, zone, intervalMs).next(now),
        misfire,
        timeoutMs,
        maxRetries,
        retryBackoffMs,
        parameters,
        TaskRow.FROM_API);
  }

  private static @Nullable Duration duration(
      Violations violations, String field, String text, Duration longest) {
    Duration parsed;
    try {
      parsed = DurationStyle.detectAndParse(text);
    } catch (IllegalArgumentException | ArithmeticException e) {
      violations.add(field, "not a duration (such as 30s, 5m or PT1H): " + text);
      return null;
    }
    return violations.check(parsed.compareTo(longest) <= 0, field, "must be at most " + longest)
        ? parsed
        : null;
  }

  private static @Nullable String intervalText(@Nullable Long intervalMs) {
    return intervalMs == null ? null : intervalMs + "ms";
  }
}
