package io.hotrank.item;

import io.hotrank.support.TestData;
import org.springframework.test.context.TestPropertySource;

/** The item cache contract on the embedded default's H2. */
@TestPropertySource(properties = "hotrank.data-dir=" + TestData.DIR + "item-cache")
class H2ItemCacheTest extends ItemCacheContract {

  static {
    TestData.empty("item-cache");
  }

  @Override
  String engine() {
    return "H2";
  }
}
