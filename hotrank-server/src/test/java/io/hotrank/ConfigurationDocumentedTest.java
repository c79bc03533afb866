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
 * Every {@code hotrank.*} setting a user can set has a row in the tables of docs/configuration.md,
 * with the code's default: the metadata that {@code spring-boot-configuration-processor} generates
 * from the properties records (what IDEs complete) is compared with that page, so a new setting
 * fails the build until it is documented.
 */
class ConfigurationDocumentedTest {

  /** The page that documents every setting; the tests run in hotrank-server. */
  private static final Path CONFIGURATION_PAGE = Path.of("..", "docs", "configuration.md");

  @Test
  void everyHotrankPropertyInTheMetadata_isInTheConfigurationPage() throws Exception {
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

    String table = configurationTables(Files.readString(CONFIGURATION_PAGE));
    List<String> undocumented =
        properties.stream()
            .filter(
                name ->
                    !table.contains("\n| `" + name + "` |")
                        && !table.contains("\n| `" + name + "["))
            .toList();
    assertThat(undocumented)
        .as("hotrank.* properties without a row in " + CONFIGURATION_PAGE)
        .isEmpty();

    List<String> wrongDefaults = new ArrayList<>();
    defaults.forEach(
        (name, value) -> {
          String row = row(table, name);
          String documented = row.split("\\|")[2].strip();
          if (!documented.equals("`" + value + "`")) {
            wrongDefaults.add(name + ": the page says " + documented + ", the code " + value);
          }
        });
    assertThat(defaults).containsKeys("hotrank.board.check-interval", "hotrank.redis.key-prefix");
    assertThat(wrongDefaults)
        .as("defaults in " + CONFIGURATION_PAGE + " that differ from the code")
        .isEmpty();
  }

  /** The table row of a property. */
  private static String row(String table, String name) {
    return table
        .lines()
        .filter(line -> line.startsWith("| `" + name + "` |"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row for " + name));
  }

  /**
   * The table rows of the page, each starting a line, in one string that starts with a line break;
   * prose and code blocks are left out, so a setting named only in a sentence does not count.
   */
  private static String configurationTables(String page) {
    assertThat(page)
        .as(CONFIGURATION_PAGE + " starts with its title")
        .startsWith("# Configuration");
    StringBuilder rows = new StringBuilder();
    page.lines()
        .filter(line -> line.startsWith("| "))
        .forEach(line -> rows.append('\n').append(line));
    assertThat(rows).as("table rows in " + CONFIGURATION_PAGE).isNotEmpty();
    return rows.toString();
  }
}
