package io.hotrank.lock;

import io.hotrank.HotrankProperties;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.storage.SqlDialect;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/** The instance's id, both lease stores and the watchdog. */
@Configuration(proxyBeanMethods = false)
public class LeaseConfiguration {

  @Bean
  InstanceId instanceId(HotrankProperties properties) {
    if (!properties.instanceId().isEmpty()) {
      return new InstanceId(properties.instanceId());
    }
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    String pid = "-" + ProcessHandle.current().pid();
    host = host.replace('/', '-');
    return new InstanceId(host.substring(0, Math.min(host.length(), 100 - pid.length())) + pid);
  }

  @Bean
  RedisLeaseStore redisLeaseStore(
      StringRedisTemplate redis, HotrankRedisProperties redisProperties, InstanceId instance) {
    return new RedisLeaseStore(redis, redisProperties.keyPrefix(), instance.value());
  }

  @Bean
  JdbcLeaseStore jdbcLeaseStore(JdbcTemplate jdbc, SqlDialect dialect, InstanceId instance) {
    return new JdbcLeaseStore(jdbc, dialect, instance.value());
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
