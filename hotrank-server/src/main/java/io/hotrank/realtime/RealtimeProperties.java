package io.hotrank.realtime;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of realtime boards under {@code hotrank.realtime.*}.
 *
 * @param publishInterval how often a window board or a leaderboard refreshed every second
 *     republishes within that second when it changed: the lag from a fold to the board being served
 *     is at most about this
 */
@ConfigurationProperties("hotrank.realtime")
public record RealtimeProperties(@DefaultValue("250ms") Duration publishInterval) {

  public RealtimeProperties {
    if (publishInterval.toMillis() < 10 || publishInterval.toMillis() > 1000) {
      throw new IllegalArgumentException(
          "hotrank.realtime.publish-interval=" + publishInterval + " must be between 10ms and 1s");
    }
  }
}
