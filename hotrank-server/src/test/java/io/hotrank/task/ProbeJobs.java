package io.hotrank.task;

import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.lock.InstanceId;
import io.hotrank.storage.SqlDialect;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A job for the process tests of the task platform, on only when {@code hotrank-test.probe-tasks}
 * is true: job {@code probe} records the start of each run in {@code probe_effect} (unfenced),
 * works for the task's {@code workMs}, stopping if cancelled, and records its end through a fenced
 * write ({@link TaskFences}). The effects, with the database's times, are the record that the
 * claims of the test are checked against. The task's name is in its parameters ({@code task}).
 */
@Component
@ConditionalOnProperty(name = "hotrank-test.probe-tasks", havingValue = "true")
class ProbeJobs implements JobSource {

  static final String TABLE =
      "CREATE TABLE IF NOT EXISTS probe_effect (task VARCHAR(128) NOT NULL, fire_time BIGINT NOT"
          + " NULL, fence BIGINT NOT NULL, owner VARCHAR(160) NOT NULL, phase VARCHAR(8) NOT NULL,"
          + " at_ms BIGINT NOT NULL)";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final JdbcTemplate jdbc;
  private final TaskFences fences;
  private final String instance;
  private final String now;

  ProbeJobs(JdbcTemplate jdbc, TaskFences fences, InstanceId instance, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.fences = fences;
    this.instance = instance.value();
    this.now = dialect.nowMillis();
    jdbc.execute(TABLE);
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(new JobDefinition(new Probe(), null));
  }

  private final class Probe implements Job {

    @Override
    public String name() {
      return "probe";
    }

    @Override
    public void run(JobContext context) throws Exception {
      JsonNode parameters = JSON.readTree(context.parameters());
      String task = parameters.get("task").asString();
      long fireTime = context.scheduledAt().toEpochMilli();
      record(task, fireTime, context.fence(), "start");
      for (long left = parameters.path("workMs").asLong(0); left > 0; left -= 20) {
        context.throwIfCancelled();
        Thread.sleep(Math.min(20, left));
      }
      fences.write(task, context.fence(), () -> record(task, fireTime, context.fence(), "end"));
    }
  }

  private int record(String task, long fireTime, long fence, String phase) {
    return jdbc.update(
        "INSERT INTO probe_effect (task, fire_time, fence, owner, phase, at_ms) VALUES (?, ?, ?,"
            + " ?, ?, "
            + now
            + ")",
        task,
        fireTime,
        fence,
        instance,
        phase);
  }
}
