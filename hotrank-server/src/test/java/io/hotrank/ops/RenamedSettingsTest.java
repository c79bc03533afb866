package io.hotrank.ops;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
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

  @Test
  void environmentVariablesOfTheNewNames_start_whileTheOldSwitchsVariableIsRefused() {
    assertThatCode(
            () ->
                new RenamedSettings(
                    withVariables(
                        Map.of(
                            "HOTRANK_DEMO_ENABLED", "true",
                            "HOTRANK_DEMO_ITEMS", "5",
                            "HOTRANK_DEMO_BIZ", "video"))))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> new RenamedSettings(withVariables(Map.of("HOTRANK_DEMO", "true"))))
        .hasMessageContaining("HOTRANK_DEMO (hotrank.demo) is now HOTRANK_DEMO_ENABLED");
  }

  /** An environment whose only settings are these environment variables, as Boot attaches them. */
  private static StandardEnvironment withVariables(Map<String, Object> variables) {
    StandardEnvironment environment = new StandardEnvironment();
    MutablePropertySources sources = environment.getPropertySources();
    sources.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    sources.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    sources.addLast(
        new SystemEnvironmentPropertySource(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
    ConfigurationPropertySources.attach(environment);
    return environment;
  }
}
