package io.hotrank.idempotency;

import io.hotrank.job.JobSource;
import io.hotrank.job.PruneJob;
import io.hotrank.limit.Clients;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.RedisReadGuard;
import io.hotrank.storage.SqlDialect;
import io.hotrank.web.FilterOrder;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/** Idempotency keys on every write under {@code /api/v1/}. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IdempotencyProperties.class)
class IdempotencyConfiguration {

  @Bean
  IdempotencyStore idempotencyStore(JdbcTemplate jdbc, SqlDialect dialect) {
    return new IdempotencyStore(jdbc, dialect);
  }

  /** The job that deletes the keys past the retention. */
  static final String PRUNE = "idempotency-prune";

  /**
   * {@code idempotency-prune}: every hour (minute 23), under its lease, deletes the keys older than
   * {@code hotrank.idempotency.retention}. A key past the retention and not yet pruned is free
   * already (the filter takes it over).
   */
  @Bean
  JobSource idempotencyPrune(
      IdempotencyStore store, Clock clock, IdempotencyProperties properties) {
    Duration retention = properties.retention();
    return new PruneJob(
            PRUNE,
            "idempotency keys older than " + retention,
            1000,
            () -> clock.millis() - retention.toMillis(),
            store::prune)
        .hourlySource(23);
  }

  @Bean
  FilterRegistrationBean<IdempotencyFilter> idempotencyFilter(
      IdempotencyStore store,
      StringRedisTemplate redis,
      RedisReadGuard guard,
      HotrankRedisProperties redisProperties,
      Clients clients,
      Clock clock,
      IdempotencyProperties properties,
      MeterRegistry meters) {
    FilterRegistrationBean<IdempotencyFilter> registration =
        new FilterRegistrationBean<>(
            new IdempotencyFilter(
                store,
                new AnswerCache(redis, guard, redisProperties.keyPrefix()),
                clients,
                clock,
                properties,
                meters));
    registration.addUrlPatterns("/api/v1/*");
    registration.setOrder(FilterOrder.IDEMPOTENCY);
    return registration;
  }
}
