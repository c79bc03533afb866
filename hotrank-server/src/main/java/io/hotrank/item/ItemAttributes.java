package io.hotrank.item;

import io.hotrank.problem.Violations;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The rules and the canonical form of an item's {@code attributes}: at most {@value #MAX_COUNT}
 * keys matching {@link #KEY}, each to a string of 1 to {@value #MAX_VALUE} characters. The
 * canonical form is a map sorted by key (keys are ASCII, so this is also their byte order): equal
 * maps show as equal JSON, in the API, in Redis and in {@code hr_item.attributes}, where it is kept
 * as JSON text ({@link #encode}). Stateless; thread-safe.
 */
final class ItemAttributes {

  /** An attribute key: short, lower-case, starting with a letter. */
  static final Pattern KEY = Pattern.compile("[a-z][a-z0-9_-]{0,31}");

  static final int MAX_COUNT = 8;
  static final int MAX_VALUE = 64;

  private static final SortedMap<String, String> NONE = Collections.emptySortedMap();
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final TypeReference<TreeMap<String, String>> STORED = new TypeReference<>() {};

  private ItemAttributes() {}

  /**
   * Records a violation for each rule {@code attributes} breaks (null is no attributes): {@code
   * attributes} when there are too many (and then nothing else) or a key is malformed, {@code
   * attributes.<key>} when a well-formed key's value is not a string, is empty or too long, or
   * holds a control character (PostgreSQL refuses NUL in text, as for titles).
   */
  static void validate(@Nullable Map<String, ? extends @Nullable Object> attributes, Violations v) {
    if (attributes == null) {
      return;
    }
    if (!v.check(
        attributes.size() <= MAX_COUNT,
        "attributes",
        "at most " + MAX_COUNT + " attributes, got " + attributes.size())) {
      return; // refused already: the keys of a huge map are not listed one by one
    }
    for (Map.Entry<String, ? extends @Nullable Object> attribute : attributes.entrySet()) {
      String key = attribute.getKey();
      if (!KEY.matcher(key).matches()) {
        v.add("attributes", "keys must match " + KEY.pattern() + ", got '" + shown(key) + "'");
        continue;
      }
      String field = "attributes." + key;
      if (v.check(attribute.getValue() instanceof String, field, "must be a string")) {
        String value = (String) attribute.getValue();
        v.check(
            !value.isEmpty() && value.length() <= MAX_VALUE,
            field,
            "must be 1 to " + MAX_VALUE + " characters, was " + value.length());
        v.check(
            value.chars().noneMatch(Character::isISOControl),
            field,
            "must not contain control characters");
      }
    }
  }

  /** A malformed key as a problem quotes it: cut short, so a huge key is not echoed whole. */
  private static String shown(String key) {
    return key.length() <= 40 ? key : key.substring(0, 40) + "...";
  }

  /**
   * The canonical form of attributes already validated (null is none): an unmodifiable map sorted
   * by key.
   *
   * @throws ClassCastException if a value is not a string (not validated)
   */
  static SortedMap<String, String> canonical(
      @Nullable Map<String, ? extends @Nullable Object> attributes) {
    if (attributes == null || attributes.isEmpty()) {
      return NONE;
    }
    TreeMap<String, String> sorted = new TreeMap<>();
    attributes.forEach((key, value) -> sorted.put(key, (String) value));
    return Collections.unmodifiableSortedMap(sorted);
  }

  /** Canonical attributes as {@code hr_item.attributes} keeps them: a JSON object, keys sorted. */
  static String encode(SortedMap<String, String> attributes) {
    return JSON.writeValueAsString(attributes);
  }

  /**
   * Attributes read from {@code hr_item.attributes}, in canonical form.
   *
   * @throws tools.jackson.core.JacksonException if the column holds no JSON object of strings
   */
  static SortedMap<String, String> decode(String stored) {
    return stored.equals("{}") ? NONE : canonical(JSON.readValue(stored, STORED));
  }
}
