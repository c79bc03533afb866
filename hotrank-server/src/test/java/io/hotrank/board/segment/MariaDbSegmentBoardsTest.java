package io.hotrank.board.segment;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.test.context.TestPropertySource;

/** Segmented boards on MariaDB or MySQL ({@code HOTRANK_TEST_MYSQL_URL}). */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_MYSQL_URL", matches = ".+")
@TestPropertySource(
    properties = {
      "spring.datasource.url=${HOTRANK_TEST_MYSQL_URL}",
      "spring.datasource.username=${HOTRANK_TEST_MYSQL_USER:root}",
      "spring.datasource.password=${HOTRANK_TEST_MYSQL_PASSWORD:}"
    })
class MariaDbSegmentBoardsTest extends SegmentBoardsContract {

  @Override
  protected String engine() {
    return "MariaDB/MySQL";
  }
}
