package io.hotrank.limit;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The last decisions of each route group on this instance, for the operator console: a bounded ring
 * per group ({@value #PER_GROUP} entries), so that an operator can see who is being limited right
 * now without a log search. In memory only; each instance keeps its own. Thread-safe: each ring is
 * guarded by its own lock, held for one add or one copy.
 */
final class RecentDecisions {

  /** How many decisions each group keeps. */
  static final int PER_GROUP = 50;

  private final Map<RouteGroup, Deque<RateLimits.Recent>> rings = new EnumMap<>(RouteGroup.class);
  private final Clock clock;

  RecentDecisions(Clock clock) {
    this.clock = clock;
    for (RouteGroup group : RouteGroup.values()) {
      rings.put(group, new ArrayDeque<>(PER_GROUP));
    }
  }

  void add(RouteGroup group, String client, String outcome, String decided, @Nullable Long left) {
    RateLimits.Recent recent =
        new RateLimits.Recent(clock.instant(), client, outcome, decided, left);
    Deque<RateLimits.Recent> ring = rings.get(group);
    synchronized (ring) {
      if (ring.size() == PER_GROUP) {
        ring.removeLast();
      }
      ring.addFirst(recent);
    }
  }

  /** The group's last decisions, newest first. */
  List<RateLimits.Recent> of(RouteGroup group) {
    Deque<RateLimits.Recent> ring = rings.get(group);
    synchronized (ring) {
      return Collections.unmodifiableList(new ArrayList<>(ring));
    }
  }
}
