package io.hotrank.task;

import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.RowMapper;

/**
 * The columns of {@code hr_task} and {@code hr_task_run} as the task store reads them, and their
 * mapping to {@link TaskRow} and {@link TaskRun}, by name: shared by the store and the engines'
 * statements ({@link TaskSql}).
 */
final class TaskColumns {

  /** Every column of {@code hr_task}, in the order of a {@code SELECT}. */
  static final String TASK_COLUMNS =
      "name, job, cron, zone, interval_ms, status, paused, triggered, next_time, fire_time,"
          + " cycle_time, rescheduled_at, started_at, manual, attempt, heartbeat, version, owner, consecutive_failures,"
          + " misfire, timeout_ms, max_retries, retry_backoff_ms, parameters, source, created_at,"
          + " updated_at";

  /** Every column of {@code hr_task_run}. */
  static final String RUN_COLUMNS =
      "id, task_name, fire_time, started_at, ended_at, outcome, owner, fence, attempt, manual,"
          + " error";

  /** The columns of {@code hr_task_recent} as {@link #RUN} reads them: a ring's row has no id. */
  static final String RECENT_COLUMNS = "NULL AS id, " + TaskSql.HISTORY_COLUMNS;

  /** Longest error summary kept in a history row. */
  private static final int ERROR_LENGTH = 1000;

  static final RowMapper<TaskRow> TASK =
      (row, i) ->
          new TaskRow(
              row.getString("name"),
              row.getString("job"),
              row.getString("cron"),
              row.getString("zone"),
              nullableLong(row, "interval_ms"),
              row.getString("status"),
              row.getInt("paused") == 1,
              row.getInt("triggered") == 1,
              row.getLong("next_time"),
              row.getLong("fire_time"),
              row.getLong("cycle_time"),
              row.getLong("rescheduled_at"),
              row.getLong("started_at"),
              row.getInt("manual") == 1,
              row.getInt("attempt"),
              row.getLong("heartbeat"),
              row.getLong("version"),
              row.getString("owner"),
              row.getInt("consecutive_failures"),
              misfire(row.getString("misfire")),
              row.getLong("timeout_ms"),
              row.getInt("max_retries"),
              row.getLong("retry_backoff_ms"),
              row.getString("parameters"),
              row.getString("source"),
              row.getLong("created_at"),
              row.getLong("updated_at"));

  static final RowMapper<TaskRun> RUN =
      (row, i) ->
          new TaskRun(
              row.getObject("id") == null ? null : row.getLong("id"),
              row.getString("task_name"),
              row.getLong("fire_time"),
              row.getLong("started_at"),
              row.getLong("ended_at"),
              row.getString("outcome"),
              row.getString("owner"),
              row.getLong("fence"),
              row.getInt("attempt"),
              row.getInt("manual") == 1,
              row.getString("error"));

  private TaskColumns() {}

  /** An error summary as a history row keeps it: at most {@value #ERROR_LENGTH} characters. */
  static @Nullable String truncate(@Nullable String error) {
    return error == null || error.length() <= ERROR_LENGTH
        ? error
        : error.substring(0, ERROR_LENGTH - 1) + "…";
  }

  private static @Nullable Long nullableLong(ResultSet row, String column) throws SQLException {
    long value = row.getLong(column);
    return row.wasNull() ? null : value;
  }

  private static Misfire misfire(String text) {
    Misfire misfire = Misfire.parse(text);
    return misfire == null ? Misfire.SKIP : misfire;
  }
}
