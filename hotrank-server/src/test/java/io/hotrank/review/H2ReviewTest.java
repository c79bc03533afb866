package io.hotrank.review;

import org.springframework.test.context.TestPropertySource;

/** Review on the embedded default, in the API contract's context (an H2 file database). */
@TestPropertySource(properties = "hotrank.data-dir=target/test-data/h2")
class H2ReviewTest extends ReviewContract {

  @Override
  protected String engine() {
    return "H2";
  }
}
