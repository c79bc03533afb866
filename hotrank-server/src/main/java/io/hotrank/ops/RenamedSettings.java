package io.hotrank.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.core.env.Environment;
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
          "hotrank.demo-zipf-exponent", "hotrank.demo.zipf-exponent");

  RenamedSettings(Environment environment) {
    List<String> found = new ArrayList<>();
    RENAMED.forEach(
        (old, replacement) -> {
          if (environment.getProperty(old) != null) {
            found.add(old + " is now " + replacement);
          }
        });
    if (!found.isEmpty()) {
      throw new IllegalStateException(
          "Renamed settings in use: " + String.join("; ", found.stream().sorted().toList()));
    }
  }
}
