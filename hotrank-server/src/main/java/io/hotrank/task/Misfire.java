package io.hotrank.task;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What a task does about fire times that passed without a run (its instances were down, paused, or
 * a run outlasted the next fire time): a fire time is missed when the one after it has passed too.
 */
public enum Misfire {
  /** Passes over the missed fire times to the next one in the future (a history row says so). */
  SKIP,
  /** Runs once now for all of them, then goes on from the next fire time in the future. */
  FIRE_ONCE;

  /** As written in requests and stored: {@code skip}, {@code fire-once}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static @Nullable Misfire parse(String text) {
    for (Misfire misfire : values()) {
      if (misfire.configName().equals(text)) {
        return misfire;
      }
    }
    return null;
  }
}
