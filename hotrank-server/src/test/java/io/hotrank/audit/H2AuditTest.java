package io.hotrank.audit;

import io.hotrank.support.TestData;
import org.springframework.test.context.TestPropertySource;

/** The audit contract on the embedded default's H2. */
@TestPropertySource(properties = "hotrank.data-dir=" + TestData.DIR + "biz-api")
class H2AuditTest extends AuditContract {

  @Override
  protected String engine() {
    return "H2";
  }
}
