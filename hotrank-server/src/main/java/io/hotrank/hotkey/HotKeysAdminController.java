package io.hotrank.hotkey;

import io.hotrank.lock.InstanceId;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/admin/hotkeys}: the keys this instance holds as hot (announced by the
 * detector, pinned until their rule's duration ends), each with the reads per rule interval over
 * all instances when last announced, and the rules.
 */
@RestController
class HotKeysAdminController {

  private final HotKeys hotKeys;
  private final InstanceId instance;

  HotKeysAdminController(HotKeys hotKeys, InstanceId instance) {
    this.hotKeys = hotKeys;
    this.instance = instance;
  }

  /** What this instance holds as hot, and the rules. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "HotKeyList")
  record View(String instance, boolean enabled, List<Rule> rules, List<HotKeys.HotKey> keys) {}

  /** A rule: keys under the prefix read more than the threshold per interval are hot. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "HotKeyRule")
  record Rule(String prefix, long threshold, long intervalMs, long durationMs) {}

  @GetMapping("/api/v1/admin/hotkeys")
  View hotKeys() {
    List<Rule> rules = new ArrayList<>();
    for (HotKeyProperties.Rule rule : hotKeys.properties().rules()) {
      rules.add(
          new Rule(
              rule.prefix(),
              rule.threshold(),
              rule.interval().toMillis(),
              rule.duration().toMillis()));
    }
    return new View(instance.value(), hotKeys.properties().enabled(), rules, hotKeys.current());
  }
}
