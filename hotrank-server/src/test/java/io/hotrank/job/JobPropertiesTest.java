package io.hotrank.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The jobs' settings as users write them: {@code hotrank.job.*} and {@code hotrank.jobs.*}. */
class JobPropertiesTest {

  private static JobProperties bind(Map<String, String> settings) {
    return new Binder(new MapConfigurationPropertySource(settings))
        .bindOrCreate("hotrank", JobProperties.class);
  }

  @Test
  void nothingSet_givesTheDocumentedDefaults_toEveryJob() {
    JobProperties properties = bind(Map.of());

    assertThat(properties.settingsOf("board-x"))
        .isEqualTo(
            new JobSettings(
                "lease", JobMode.PER_RUN, "redis", Duration.ofSeconds(30), Duration.ofSeconds(10)));
    assertThat(properties.shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
    assertThat(properties.jobs()).isEmpty();
  }

  @Test
  void aJobsOwnValues_overTheDefaults_eachAbsentOneFallingBack() {
    JobProperties properties =
        bind(
            Map.of(
                "hotrank.job.store", "jdbc",
                "hotrank.job.lease-ttl", "20s",
                "hotrank.job.shutdown-grace", "3s",
                "hotrank.jobs.board-x.mode", "leader",
                "hotrank.jobs.board-x.lease-ttl", "5s",
                "hotrank.jobs.event-fold.engine", "task",
                "hotrank.jobs.event-fold.store", "redis"));

    assertThat(properties.settingsOf("board-x"))
        .isEqualTo(
            new JobSettings(
                "lease", JobMode.LEADER, "jdbc", Duration.ofSeconds(5), Duration.ofSeconds(3)));
    assertThat(properties.settingsOf("event-fold"))
        .isEqualTo(
            new JobSettings(
                "task", JobMode.PER_RUN, "redis", Duration.ofSeconds(20), Duration.ofSeconds(3)));
    assertThat(properties.settingsOf("other"))
        .isEqualTo(
            new JobSettings(
                "lease", JobMode.PER_RUN, "jdbc", Duration.ofSeconds(20), Duration.ofSeconds(3)));
    assertThat(properties.jobs()).containsOnlyKeys("board-x", "event-fold");
  }

  @Test
  void badValues_areRefused_namingTheProperty() {
    assertThatThrownBy(() -> bind(Map.of("hotrank.job.store", "mongo")))
        .isInstanceOf(BindException.class)
        .rootCause()
        .hasMessage("hotrank.job.store=mongo must be 'redis' or 'jdbc'");
    assertThatThrownBy(() -> bind(Map.of("hotrank.job.lease-ttl", "10ms")))
        .rootCause()
        .hasMessage("hotrank.job.lease-ttl=PT0.01S must be at least 30ms");
    assertThatThrownBy(() -> bind(Map.of("hotrank.job.shutdown-grace", "-1s")))
        .rootCause()
        .hasMessage("hotrank.job.shutdown-grace=PT-1S must not be negative");

    JobProperties properties =
        bind(
            Map.of("hotrank.jobs.board-x.store", "mongo", "hotrank.jobs.board-y.lease-ttl", "1ms"));
    assertThatThrownBy(() -> properties.settingsOf("board-x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hotrank.jobs.board-x.store=mongo must be 'redis' or 'jdbc'");
    assertThatThrownBy(() -> properties.settingsOf("board-y"))
        .hasMessage("hotrank.jobs.board-y.lease-ttl=PT0.001S must be at least 30ms");
    assertThat(properties.jobs().get("board-x"))
        .asInstanceOf(InstanceOfAssertFactories.type(JobProperties.Override.class))
        .extracting(JobProperties.Override::mode)
        .isNull();
  }
}
