package io.hotrank.ops;

import io.hotrank.redis.RedisReadGuard;
import java.sql.Connection;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The {@code redis} and {@code db} health indicators, in place of Spring Boot's (turned off in
 * {@code application.yml}): the same probes, logged once per change of state. Both count in the
 * overall {@code /actuator/health}, which is for monitoring; the readiness group a load balancer
 * should use counts the {@code boards} indicator instead, which stays UP while any layer can serve.
 */
@Configuration(proxyBeanMethods = false)
class LayerHealthConfiguration {

  /** Seconds a database connection has to prove itself valid. */
  private static final int DB_VALID_TIMEOUT_SECONDS = 2;

  /**
   * A PING bounded by the read timeout, and answered at once while the read breaker is open, so a
   * probe never waits on a Redis that is gone (the client's own connect and command timeouts are
   * seconds). Probes do not count in the breaker.
   */
  @Bean
  HealthIndicator redisHealthIndicator(RedisConnectionFactory connections, RedisReadGuard guard) {
    return new StateChangeHealthIndicator(
        "Redis",
        () ->
            Map.of(
                "ping",
                guard.probe(
                    "health ping",
                    () -> {
                      try (RedisConnection connection = connections.getConnection()) {
                        return String.valueOf(connection.ping());
                      }
                    })));
  }

  @Bean
  HealthIndicator dbHealthIndicator(DataSource dataSource) {
    return new StateChangeHealthIndicator(
        "The database",
        () -> {
          try (Connection connection = dataSource.getConnection()) {
            if (!connection.isValid(DB_VALID_TIMEOUT_SECONDS)) {
              throw new IllegalStateException(
                  "connection not valid within " + DB_VALID_TIMEOUT_SECONDS + " s");
            }
            return Map.of("database", connection.getMetaData().getDatabaseProductName());
          }
        });
  }
}
