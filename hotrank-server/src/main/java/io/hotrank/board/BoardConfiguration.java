package io.hotrank.board;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/** Subscribes {@link BoardSync} to publish notices; installs the read fast path. */
@Configuration(proxyBeanMethods = false)
class BoardConfiguration {

  /**
   * Runs before Spring's own filters: a hit answered here needs none of them (no body to
   * decode, no request context); its HTTP metrics are counted by {@code hotrank.board.reads}.
   */
  @Bean
  @ConditionalOnBooleanProperty(name = "hotrank.board.fast-path", matchIfMissing = true)
  FilterRegistrationBean<BoardReadFilter> boardReadFilter(BoardRegistry registry,
      BoardReader reader, BoardHttp http) {
    FilterRegistrationBean<BoardReadFilter> registration =
        new FilterRegistrationBean<>(new BoardReadFilter(registry, reader, http));
    registration.addUrlPatterns(BoardReadFilter.PREFIX + "*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    return registration;
  }

  /** The optional Netty listener for board reads; off unless {@code hotrank.read-server.port} is set. */
  @Bean
  @ConditionalOnProperty("hotrank.read-server.port")
  BoardReadServer boardReadServer(BoardRegistry registry, BoardReader reader, BoardHttp http,
      ConfigurableEnvironment environment,
      @Value("${hotrank.read-server.address:0.0.0.0}") String address,
      @Value("${hotrank.read-server.port}") int port,
      @Value("${hotrank.read-server.threads:0}") int threads) {
    return new BoardReadServer(registry, reader, http, environment, address, port, threads);
  }

  /** {@code hotrank.board.notices=false} leaves convergence to the periodic version check. */
  @Bean
  @ConditionalOnBooleanProperty(name = "hotrank.board.notices", matchIfMissing = true)
  RedisMessageListenerContainer boardNotices(RedisConnectionFactory connections, BoardSync sync,
      BoardRedisStore redis) {
    RedisMessageListenerContainer container = new RedisMessageListenerContainer();
    container.setConnectionFactory(connections);
    container.addMessageListener(sync, new ChannelTopic(redis.channel()));
    // Retry subscribing every second while Redis is away; the periodic check covers the gap.
    container.setRecoveryInterval(1000);
    // Started by BoardSync off the main thread: an instance must start while Redis is down.
    container.setAutoStartup(false);
    return container;
  }
}
