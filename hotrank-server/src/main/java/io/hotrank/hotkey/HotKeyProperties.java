package io.hotrank.hotkey;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Hot-key detection, under {@code hotrank.hotkeys.*}.
 *
 * @param enabled whether this instance counts its reads and takes announcements
 * @param slice the length of a counting slice: reads are counted per slice, and each finished
 *     slice's top keys are pushed to Redis
 * @param pushTop how many of a slice's most read keys an instance pushes
 * @param maxKeys how many distinct keys a slice counts at most (memory bound); reads of further
 *     keys in that slice are not counted
 * @param rules which keys count as hot: the first rule whose prefix a key starts with applies
 */
@ConfigurationProperties("hotrank.hotkeys")
public record HotKeyProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("200ms") Duration slice,
    @DefaultValue("100") int pushTop,
    @DefaultValue("10000") int maxKeys,
    @Nullable List<Rule> rules) {

  /**
   * A rule.
   *
   * @param prefix the keys it applies to: {@code item:} (item reads, keys {@code item:<biz>:<id>}),
   *     {@code board:} (board reads, {@code board:<name>}), or a narrower prefix
   * @param threshold reads per {@code interval}, over all instances, from which a key is hot
   * @param interval the window the threshold is counted over, a whole number of slices
   * @param duration how long instances keep a detected key pinned; re-detection extends it
   */
  public record Rule(
      String prefix,
      long threshold,
      @DefaultValue("1s") Duration interval,
      @DefaultValue("30s") Duration duration) {}

  /** The rules shipped when none are configured. */
  static final List<Rule> DEFAULT_RULES =
      List.of(
          new Rule("item:", 200, Duration.ofSeconds(1), Duration.ofSeconds(30)),
          new Rule("board:", 1000, Duration.ofSeconds(1), Duration.ofSeconds(30)));

  public HotKeyProperties {
    String p = "hotrank.hotkeys.";
    if (slice.toMillis() < 10 || slice.toMillis() > 10_000) {
      throw new IllegalArgumentException(p + "slice=" + slice + " must be 10ms to 10s");
    }
    if (pushTop < 1 || maxKeys < pushTop) {
      throw new IllegalArgumentException(
          p + "push-top must be at least 1 and max-keys at least push-top");
    }
    rules = rules == null || rules.isEmpty() ? DEFAULT_RULES : List.copyOf(rules);
    for (int i = 0; i < rules.size(); i++) {
      Rule r = rules.get(i);
      String at = p + "rules[" + i + "].";
      if (r.prefix() == null || r.prefix().isEmpty() || r.prefix().contains(" ")) {
        throw new IllegalArgumentException(at + "prefix is required and has no space");
      }
      if (r.threshold() < 1) {
        throw new IllegalArgumentException(at + "threshold must be at least 1");
      }
      if (r.interval().toMillis() < slice.toMillis()
          || r.interval().toMillis() % slice.toMillis() != 0
          || r.interval().toMillis() / slice.toMillis() > 240) {
        throw new IllegalArgumentException(
            at + "interval=" + r.interval() + " must be 1 to 240 whole slices of " + slice);
      }
      if (r.duration().toMillis() < 1) {
        throw new IllegalArgumentException(at + "duration must be positive");
      }
    }
  }

  /** The rule for a key: the first whose prefix it starts with, or null. */
  @Nullable Rule ruleFor(String key) {
    for (Rule rule : rules) {
      if (key.startsWith(rule.prefix())) {
        return rule;
      }
    }
    return null;
  }
}
