package io.hotrank.web;

import java.util.Locale;

/**
 * What an operator's token allows on the admin endpoints and in the console. An admin handler
 * method states the role it needs with {@link AdminAction}; without one, a read ({@code GET},
 * {@code HEAD}) needs {@link #VIEWER} and anything else {@link #ADMIN}.
 */
public enum Role {
  /** Every admin read ({@code GET}), nothing else. */
  VIEWER,
  /** Reads, board controls, task pause/resume/trigger, recompute, rebuild and manual folds. */
  OPERATOR,
  /** Everything, including creating, updating and deleting tasks and bizes. */
  ADMIN;

  /** Whether this role includes everything {@code needed} allows. */
  public boolean allows(Role needed) {
    return compareTo(needed) >= 0;
  }

  /** The name as written in configuration. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
