package io.hotrank.ops;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class RenamedSettingsTest {

  @Test
  void theOldDemoSwitch_stopsTheStart_namingItsReplacement() {
    MockEnvironment environment =
        new MockEnvironment()
            .withProperty("hotrank.demo", "true")
            .withProperty("hotrank.demo-items", "5");

    assertThatThrownBy(() -> new RenamedSettings(environment))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("hotrank.demo is now hotrank.demo.enabled")
        .hasMessageContaining("hotrank.demo-items is now hotrank.demo.items");
  }

  @Test
  void theNewNames_start() {
    MockEnvironment environment =
        new MockEnvironment()
            .withProperty("hotrank.demo.enabled", "true")
            .withProperty("hotrank.demo.items", "5");

    assertThatCode(() -> new RenamedSettings(environment)).doesNotThrowAnyException();
  }
}
