package io.hotrank.task;

import io.hotrank.job.Job;
import io.hotrank.job.JobMode;
import io.hotrank.job.JobProperties;
import io.hotrank.job.JobSettings;
import io.hotrank.lock.InstanceId;
import io.hotrank.storage.SqlDialect;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Task engines built outside the service, for the benchmarks. It lives in the engine's package,
 * though in the benchmarks' module, to reach the package-private constructors the service wires
 * through Spring: the service's code keeps no factory that only benchmarks use.
 */
public final class StandaloneTaskEngines {

  private StandaloneTaskEngines() {}

  /**
   * A task engine on {@code dataSource}, whose tables the service's Flyway migrations have created,
   * running {@code jobs} as given (no log line or timer per run). The caller starts and stops it.
   */
  public static TaskEngine create(
      DataSource dataSource,
      TaskProperties properties,
      String instance,
      Duration shutdownGrace,
      List<Job> jobs) {
    TaskEngine engine =
        new TaskEngine(
            new TaskStore(
                new JdbcTemplate(dataSource),
                SqlDialect.detect(dataSource),
                new TransactionTemplate(new DataSourceTransactionManager(dataSource)),
                properties.history(),
                properties.historyKeep()),
            properties,
            new JobProperties(
                new JobSettings(
                    TaskEngine.NAME,
                    JobMode.PER_RUN,
                    "jdbc",
                    Duration.ofSeconds(30),
                    shutdownGrace),
                Map.of()),
            InstanceId.of(instance),
            new SimpleMeterRegistry(),
            Clock.systemUTC(),
            Ticker.system());
    Map<String, Job> byName = new LinkedHashMap<>();
    jobs.forEach(job -> byName.put(job.name(), job));
    engine.adopt(byName, Map.of());
    return engine;
  }
}
