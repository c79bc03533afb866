package io.hotrank.support;

import io.hotrank.board.BoardProperties;
import java.time.Duration;
import org.springframework.util.unit.DataSize;

/** The board settings as shipped ({@code hotrank.board.*} defaults), for tests built by hand. */
public final class TestBoardProperties {

  private TestBoardProperties() {}

  public static BoardProperties defaults() {
    return new BoardProperties(
        2000,
        Duration.ofSeconds(5),
        50,
        true,
        Duration.ofSeconds(5),
        true,
        true,
        Duration.ofMinutes(10),
        DataSize.ofMegabytes(64));
  }
}
