package io.hotrank.item;

import io.hotrank.support.TestData;
import org.springframework.test.context.TestPropertySource;

/** The biz contract on the embedded default's H2. */
@TestPropertySource(properties = "hotrank.data-dir=" + TestData.DIR + "biz-api")
class H2BizApiTest extends BizApiContract {

  static {
    TestData.empty("biz-api");
  }

  @Override
  protected String engine() {
    return "H2";
  }
}
