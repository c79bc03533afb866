package io.hotrank.item;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The existence cache that accepting events reads ({@link LiveItems}), under {@code
 * hotrank.items.live.*} (until issue 40, {@code hotrank.ingest.item-cache-size} and {@code -ttl}).
 *
 * @param entries how many items each of its two caches (live, deleted) holds at most
 * @param ttl how long it trusts that an item is live; an item deleted on another instance may have
 *     events accepted this long (the folder then drops them)
 */
@ConfigurationProperties("hotrank.items.live")
public record LiveItemsProperties(
    @DefaultValue("100000") long entries, @DefaultValue("5s") Duration ttl) {

  public LiveItemsProperties {
    if (entries < 1) {
      throw new IllegalArgumentException(
          "hotrank.items.live.entries=" + entries + " must be at least 1");
    }
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("hotrank.items.live.ttl=" + ttl + " must be positive");
    }
  }
}
