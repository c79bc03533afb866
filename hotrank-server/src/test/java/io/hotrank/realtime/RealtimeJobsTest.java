package io.hotrank.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RealtimeJobsTest {

  /**
   * A realtime board refreshes every second by default (its definition reports a cron's interval as
   * at least a second): such a run must look again within its second, or the board moves only once
   * a second whatever the publish interval.
   */
  @Test
  void aBoardRefreshedEverySecond_looksAgainWithinTheRun_aSlowerOneDoesNot() {
    assertThat(RealtimeJobs.looksAgainWithinRun(Duration.ofSeconds(1))).isTrue();
    assertThat(RealtimeJobs.looksAgainWithinRun(Duration.ofSeconds(2))).isFalse();
    assertThat(RealtimeJobs.looksAgainWithinRun(Duration.ofMinutes(1))).isFalse();
  }
}
