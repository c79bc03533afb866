package io.hotrank.board.read;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The optional Netty listener that serves board reads only, under {@code hotrank.read-server.*}.
 *
 * @param port when set, a second listener serves {@code GET /api/v1/boards/{name}} on this port,
 *     with the same answers as the main port; {@code 0} picks a free port; unset, there is none
 * @param address the address it binds
 * @param threads event loop threads; 0 means Netty's default, two per CPU
 */
@ConfigurationProperties("hotrank.read-server")
record ReadServerProperties(
    @Nullable Integer port,
    @DefaultValue("0.0.0.0") String address,
    @DefaultValue("0") int threads) {

  ReadServerProperties {
    if (port != null && (port < 0 || port > 65535)) {
      throw new IllegalArgumentException(
          "hotrank.read-server.port=" + port + " must be between 0 and 65535");
    }
    if (threads < 0) {
      throw new IllegalArgumentException(
          "hotrank.read-server.threads=" + threads + " must not be negative");
    }
  }
}
