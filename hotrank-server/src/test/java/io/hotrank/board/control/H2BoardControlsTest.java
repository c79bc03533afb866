package io.hotrank.board.control;

import io.hotrank.support.TestData;
import org.springframework.test.context.TestPropertySource;

/** Board controls on the embedded default's H2. */
@TestPropertySource(properties = "hotrank.data-dir=" + TestData.DIR + "board-controls")
class H2BoardControlsTest extends BoardControlsContract {

  static {
    TestData.empty("board-controls");
  }

  @Override
  protected String engine() {
    return "H2";
  }
}
