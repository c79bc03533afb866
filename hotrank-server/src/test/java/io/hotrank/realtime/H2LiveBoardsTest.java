package io.hotrank.realtime;

import io.hotrank.support.TestData;
import org.junit.jupiter.api.Tag;
import org.springframework.test.context.TestPropertySource;

/** Live boards on the embedded default's H2; again on the Redis Cluster in the cluster pass. */
@TestPropertySource(properties = "hotrank.data-dir=" + TestData.DIR + "live-boards")
@Tag("cluster")
class H2LiveBoardsTest extends LiveBoardsContract {

  static {
    TestData.empty("live-boards");
  }

  @Override
  protected String engine() {
    return "H2";
  }
}
