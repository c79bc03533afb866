package io.hotrank.lock;

import io.hotrank.HotrankProperties;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.storage.SqlDialect;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/** The instance's identity, both lease stores and the watchdog. */
@Configuration(proxyBeanMethods = false)
public class LeaseConfiguration {

  @Bean(destroyMethod = "close")
  InstanceIdentity instanceIdentity(
      HotrankProperties properties,
      JdbcTemplate jdbc,
      SqlDialect dialect,
      LeaseWatchdog watchdog,
      Ticker ticker) {
    if (properties.instanceId().isEmpty()) {
      return InstanceIdentity.fromDataDir(properties.dataDir().toAbsolutePath());
    }
    InstanceId probe = InstanceId.of(properties.instanceId());
    return InstanceIdentity.configured(
        probe, new JdbcLeaseStore(jdbc, dialect, probe), watchdog, ticker);
  }

  @Bean
  InstanceId instanceId(InstanceIdentity identity) {
    return identity.id();
  }

  @Bean
  RedisLeaseStore redisLeaseStore(
      StringRedisTemplate redis, HotrankRedisProperties redisProperties, InstanceId instance) {
    return new RedisLeaseStore(redis, redisProperties.keyPrefix(), instance);
  }

  @Bean
  JdbcLeaseStore jdbcLeaseStore(JdbcTemplate jdbc, SqlDialect dialect, InstanceId instance) {
    return new JdbcLeaseStore(jdbc, dialect, instance);
  }

  @Bean
  LeaseStores leaseStores(List<LeaseStore> stores) {
    return new LeaseStores(
        stores.stream().collect(Collectors.toMap(LeaseStore::kind, Function.identity())));
  }

  @Bean(destroyMethod = "close")
  LeaseWatchdog leaseWatchdog(Ticker ticker, MeterRegistry meters) {
    return new LeaseWatchdog(ticker, meters);
  }

  /** The lease stores by kind ({@code redis}, {@code jdbc}). */
  public record LeaseStores(Map<String, LeaseStore> byKind) {

    /** The store of a kind. */
    public LeaseStore of(String kind) {
      LeaseStore store = byKind.get(kind);
      if (store == null) {
        throw new IllegalArgumentException(
            "no lease store '" + kind + "'; known: " + byKind.keySet());
      }
      return store;
    }
  }
}
