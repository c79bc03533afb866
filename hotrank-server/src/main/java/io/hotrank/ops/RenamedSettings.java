package io.hotrank.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.stereotype.Component;

/**
 * Refuses to start with a setting that was renamed, naming its replacement, rather than ignoring it
 * silently: {@code --hotrank.demo=true} would otherwise start the service without demo traffic and
 * without a word. The IDE metadata marks the old names deprecated as well.
 */
@Component
class RenamedSettings {

  /** Old name, new name. */
  static final Map<String, String> RENAMED =
      Map.of(
          "hotrank.demo", "hotrank.demo.enabled",
          "hotrank.demo-biz", "hotrank.demo.biz",
          "hotrank.demo-items", "hotrank.demo.items",
          "hotrank.demo-events-per-second", "hotrank.demo.events-per-second",
          "hotrank.demo-zipf-exponent", "hotrank.demo.zipf-exponent",
          "hotrank.board.shutdown-grace", "hotrank.job.shutdown-grace",
          "hotrank.items.cache.filter-expected", "hotrank.items.cache.filter-max-capacity");

  /** The environment variable of the old switch; the others share theirs with the new names. */
  static final String OLD_SWITCH_VARIABLE = "HOTRANK_DEMO";

  RenamedSettings(ConfigurableEnvironment environment) {
    List<String> found = new ArrayList<>();
    for (PropertySource<?> source : environment.getPropertySources()) {
      if (ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
        continue; // a view of all the other sources, with relaxed names
      }
      if (source instanceof SystemEnvironmentPropertySource variables) {
        // HOTRANK_DEMO_ITEMS is the variable of hotrank.demo.items as much as of the old
        // hotrank.demo-items, so only the old switch's own variable is a sure sign.
        if (variables.getSource().containsKey(OLD_SWITCH_VARIABLE)) {
          found.add(OLD_SWITCH_VARIABLE + " (hotrank.demo) is now HOTRANK_DEMO_ENABLED");
        }
        continue;
      }
      RENAMED.forEach(
          (old, replacement) -> {
            if (source.containsProperty(old)) {
              found.add(old + " is now " + replacement);
            }
          });
    }
    if (!found.isEmpty()) {
      throw new IllegalStateException(
          "Renamed settings in use: "
              + String.join("; ", found.stream().sorted().distinct().toList()));
    }
  }
}
