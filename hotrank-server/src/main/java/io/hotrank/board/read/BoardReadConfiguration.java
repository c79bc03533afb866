package io.hotrank.board.read;

import io.hotrank.board.BoardRegistry;
import io.hotrank.web.FilterOrder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

/** Installs the read fast path and the optional read port. */
@Configuration(proxyBeanMethods = false)
class BoardReadConfiguration {

  /**
   * Runs before Spring's own filters, right after the rate limits: a hit answered here needs none
   * of them (no body to decode, no request context); its HTTP metrics are counted by {@code
   * hotrank.board.reads}.
   */
  @Bean
  @ConditionalOnBooleanProperty(name = "hotrank.board.fast-path", matchIfMissing = true)
  FilterRegistrationBean<BoardReadFilter> boardReadFilter(
      BoardRegistry registry, BoardReader reader, BoardHttp http) {
    FilterRegistrationBean<BoardReadFilter> registration =
        new FilterRegistrationBean<>(new BoardReadFilter(registry, reader, http));
    registration.addUrlPatterns(BoardReadFilter.PREFIX + "*");
    registration.setOrder(FilterOrder.BOARD_FAST_PATH);
    return registration;
  }

  /** The optional Netty listener for board reads; off unless {@code hotrank.read-server.port}. */
  @Bean
  @ConditionalOnProperty("hotrank.read-server.port")
  BoardReadServer boardReadServer(
      BoardRegistry registry,
      BoardReader reader,
      BoardHttp http,
      ConfigurableEnvironment environment,
      ReadServerProperties properties) {
    return new BoardReadServer(registry, reader, http, environment, properties);
  }
}
