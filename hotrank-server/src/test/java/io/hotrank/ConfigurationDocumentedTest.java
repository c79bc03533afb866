package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every {@code hotrank.*} setting a user can set is in the README's configuration table: the
 * metadata that {@code spring-boot-configuration-processor} generates from the properties records
 * (what IDEs complete) is compared with the README, so a new setting fails the build until it is
 * documented.
 */
class ConfigurationDocumentedTest {

  @Test
  void everyHotrankPropertyInTheMetadata_isInTheReadmeConfigurationTable() throws Exception {
    JsonNode metadata;
    try (InputStream in =
        getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("generated configuration metadata").isNotNull();
      metadata = JsonMapper.builder().build().readTree(in);
    }
    List<String> properties = new ArrayList<>();
    java.util.Map<String, String> defaults = new java.util.TreeMap<>();
    metadata
        .get("properties")
        .forEach(
            p -> {
              String name = p.get("name").asString();
              if (name.startsWith("hotrank.") && !p.has("deprecation")) {
                properties.add(name);
                JsonNode value = p.get("defaultValue");
                if (value != null && !value.isNull() && !value.asString().isEmpty()) {
                  defaults.put(name, value.asString());
                }
              }
            });
    // A rule over nothing passes whatever: the records of several packages must be in.
    assertThat(properties)
        .contains(
            "hotrank.board.default-limit",
            "hotrank.redis.read-timeout",
            "hotrank.read-server.port",
            "hotrank.demo.enabled",
            "hotrank.boards",
            "hotrank.data-dir");

    String table = configurationTable(Files.readString(Path.of("..", "README.md")));
    List<String> undocumented =
        properties.stream()
            .filter(name -> !table.contains("`" + name + "`") && !table.contains("`" + name + "["))
            .toList();
    assertThat(undocumented).as("hotrank.* properties missing from the README's table").isEmpty();

    List<String> wrongDefaults = new ArrayList<>();
    defaults.forEach(
        (name, value) -> {
          String row = row(table, name);
          String documented = row.split("\\|")[2].strip();
          if (!documented.equals("`" + value + "`")) {
            wrongDefaults.add(name + ": README says " + documented + ", the code " + value);
          }
        });
    assertThat(defaults).containsKeys("hotrank.board.check-interval", "hotrank.redis.key-prefix");
    assertThat(wrongDefaults).as("defaults in the README that differ from the code").isEmpty();
  }

  /** The table row of a property. */
  private static String row(String table, String name) {
    return table
        .lines()
        .filter(line -> line.startsWith("| `" + name + "` |"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row for " + name));
  }

  /** The README's section under "## Configuration", up to the next section. */
  private static String configurationTable(String readme) {
    int start = readme.indexOf("\n## Configuration");
    assertThat(start).as("a '## Configuration' section in README.md").isNotNegative();
    int end = readme.indexOf("\n## ", start + 1);
    return readme.substring(start, end < 0 ? readme.length() : end);
  }
}
