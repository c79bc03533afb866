package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.publish.LocalBoards;
import io.hotrank.board.publish.SnapshotSources;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code boards} health, part of the readiness group: UP while some layer can serve boards,
 * which is what decides whether a load balancer should send this instance reads. That is the case
 * when this instance holds a snapshot in memory (served whatever Redis and the database do), or
 * when Redis or the database answers (a board computed later is fetched from there). DOWN only when
 * nothing is held and neither answers. Redis is asked within the read timeout (not at all while the
 * read breaker is open), the database with a one-second query timeout, so a hung layer does not
 * hang the probe; probes do not count as reads in the breaker. Logs nothing; the {@code redis} and
 * {@code db} indicators log their state changes.
 */
@Component("boardsHealthIndicator")
class BoardsHealthIndicator implements HealthIndicator {

  private final BoardRegistry registry;
  private final LocalBoards local;
  private final SnapshotSources sources;

  BoardsHealthIndicator(BoardRegistry registry, LocalBoards local, SnapshotSources sources) {
    this.registry = registry;
    this.local = local;
    this.sources = sources;
  }

  @Override
  public Health health() {
    Map<String, Object> held = new LinkedHashMap<>();
    boolean anyHeld = false;
    for (BoardDefinition board : registry.all()) {
      if (board.segmented()) {
        held.put(board.name(), "segments held: read when asked for");
        continue;
      }
      long version = local.version(board.name());
      held.put(board.name(), version == 0 ? "none" : "v" + version);
      anyHeld |= version > 0;
    }
    anyHeld |= !local.segmentKeys().isEmpty();
    if (anyHeld) {
      return Health.up().withDetail("source", "local").withDetail("boards", held).build();
    }
    if (held.isEmpty()) {
      return Health.up().withDetail("boards", held).build(); // nothing to serve, nothing missing
    }
    if (sources.redisAnswers()) {
      return Health.up().withDetail("source", "redis").withDetail("boards", held).build();
    }
    if (sources.databaseAnswers()) {
      return Health.up().withDetail("source", "db").withDetail("boards", held).build();
    }
    return Health.down()
        .withDetail("boards", held)
        .withDetail("reason", "no board held locally, and neither Redis nor the database answers")
        .build();
  }
}
