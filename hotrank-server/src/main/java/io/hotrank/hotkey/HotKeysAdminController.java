package io.hotrank.hotkey;

import io.hotrank.lock.InstanceId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  @GetMapping("/api/v1/admin/hotkeys")
  Map<String, Object> hotKeys() {
    List<Map<String, Object>> rules = new ArrayList<>();
    for (HotKeyProperties.Rule rule : hotKeys.properties().rules()) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("prefix", rule.prefix());
      r.put("threshold", rule.threshold());
      r.put("intervalMs", rule.interval().toMillis());
      r.put("durationMs", rule.duration().toMillis());
      rules.add(r);
    }
    List<Map<String, Object>> keys = new ArrayList<>();
    for (HotKeys.HotKey key : hotKeys.current()) {
      Map<String, Object> k = new LinkedHashMap<>();
      k.put("key", key.key());
      k.put("rule", key.rule());
      k.put("rate", key.rate());
      k.put("since", key.since().toString());
      k.put("until", key.until().toString());
      keys.add(k);
    }
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("instance", instance.value());
    view.put("enabled", hotKeys.properties().enabled());
    view.put("rules", rules);
    view.put("keys", keys);
    return view;
  }
}
