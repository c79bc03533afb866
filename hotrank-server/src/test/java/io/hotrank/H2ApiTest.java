package io.hotrank;

import org.junit.jupiter.api.Tag;
import org.springframework.test.context.TestPropertySource;

/** The API contract on the embedded default: an H2 file database under the data dir. */
@TestPropertySource(properties = "hotrank.data-dir=target/test-data/h2")
@Tag("cluster")
class H2ApiTest extends HotrankApiContract {

  @Override
  protected String engine() {
    return "H2";
  }
}
