package io.hotrank.board;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/** Subscribes {@link BoardSync} to publish notices. */
@Configuration(proxyBeanMethods = false)
class BoardConfiguration {

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
