package io.hotrank.trust;

import org.junit.jupiter.api.Tag;
import org.springframework.test.context.TestPropertySource;

/** Actors on the embedded default, in the API contract's context (an H2 file database). */
@TestPropertySource(properties = "hotrank.data-dir=target/test-data/h2")
@Tag("cluster")
class H2ActorsTest extends ActorsContract {

  @Override
  protected String engine() {
    return "H2";
  }
}
