package io.hotrank.board.segment;

import io.hotrank.support.TestData;
import org.junit.jupiter.api.Tag;
import org.springframework.test.context.TestPropertySource;

/**
 * Segmented boards on the embedded default's H2; again on the Redis Cluster in the cluster pass.
 */
@TestPropertySource(properties = "hotrank.data-dir=" + TestData.DIR + "segment-boards")
@Tag("cluster")
class H2SegmentBoardsTest extends SegmentBoardsContract {

  static {
    TestData.empty("segment-boards");
  }

  @Override
  protected String engine() {
    return "H2";
  }
}
