package io.hotrank.redis;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * How the Redis client (Lettuce, configured by Spring Boot) comes back after a restart or a
 * failover, where its defaults are made for other services than this one:
 *
 * <ul>
 *   <li>Reconnect attempts back off exponentially up to {@link #RECONNECT_CAP} instead of 30 s, so
 *       that a Redis back after an outage is used within two seconds, not up to half a minute later
 *       (boards, leases and rate limits wait on it).
 *   <li>On a Cluster, the topology is re-read every {@code
 *       spring.data.redis.lettuce.cluster.refresh.period} (5 s by default here) and at once on any
 *       sign of change (a node gone, MOVED, reconnects), at most once a second instead of once
 *       every 30 s: after a failover the promoted replica is found within seconds. Boot's own
 *       properties cannot set that last interval, hence this customizer.
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class LettuceTuning {

  static final Duration RECONNECT_CAP = Duration.ofSeconds(2);
  static final Duration ADAPTIVE_REFRESH_INTERVAL = Duration.ofSeconds(1);

  @Bean
  ClientResourcesBuilderCustomizer hotrankReconnectDelay() {
    return builder ->
        builder.reconnectDelay(
            Delay.exponential(Duration.ofMillis(10), RECONNECT_CAP, 2, TimeUnit.MILLISECONDS));
  }

  @Bean
  LettuceClientOptionsBuilderCustomizer hotrankClusterRefresh(DataRedisProperties redis) {
    return builder -> {
      if (builder instanceof ClusterClientOptions.Builder cluster) {
        Duration period = redis.getLettuce().getCluster().getRefresh().getPeriod();
        ClusterTopologyRefreshOptions.Builder refresh =
            ClusterTopologyRefreshOptions.builder()
                .dynamicRefreshSources(
                    redis.getLettuce().getCluster().getRefresh().isDynamicRefreshSources())
                .enableAllAdaptiveRefreshTriggers()
                .adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_INTERVAL);
        if (period != null) {
          refresh.enablePeriodicRefresh(period);
        }
        cluster.topologyRefreshOptions(refresh.build());
      }
    };
  }
}
