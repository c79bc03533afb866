package io.hotrank.idempotency;

import org.junit.jupiter.api.Tag;
import org.springframework.test.context.TestPropertySource;

/**
 * Idempotency keys and event ids on the embedded default: an H2 file database under the data dir.
 */
@TestPropertySource(properties = "hotrank.data-dir=target/test-data/h2")
@Tag("cluster")
class H2IdempotencyTest extends IdempotencyContract {

  @Override
  protected String engine() {
    return "H2";
  }
}
