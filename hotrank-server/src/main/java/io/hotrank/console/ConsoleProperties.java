package io.hotrank.console;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The operator console's settings, under {@code hotrank.console.*}.
 *
 * @param sessionTimeout how long a console sign-in lasts; the operator signs in again after it
 */
@ConfigurationProperties("hotrank.console")
record ConsoleProperties(@DefaultValue("8h") Duration sessionTimeout) {

  ConsoleProperties {
    if (sessionTimeout.toSeconds() < 60) {
      throw new IllegalArgumentException(
          "hotrank.console.session-timeout=" + sessionTimeout + " must be at least 1m");
    }
  }
}
