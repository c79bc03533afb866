package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.publish.LocalBoards;
import io.hotrank.board.publish.SnapshotSources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Loads every board's newest snapshot (Redis, else the database) into the local layer at startup.
 * Application runners complete before Spring Boot reports the instance ready ({@code
 * /actuator/health/readiness}), so an instance joining a rolling deploy serves its first read
 * locally. A board found nowhere is logged and served as soon as it is computed.
 */
@Component
class BoardPreloader implements ApplicationRunner {

  private static final Logger log = LoggerFactory.getLogger(BoardPreloader.class);

  private final BoardRegistry registry;
  private final BoardReader reader;
  private final LocalBoards local;
  private final SnapshotSources sources;

  BoardPreloader(
      BoardRegistry registry, BoardReader reader, LocalBoards local, SnapshotSources sources) {
    this.registry = registry;
    this.reader = reader;
    this.local = local;
    this.sources = sources;
  }

  @Override
  public void run(ApplicationArguments args) {
    // The first command opens the connection, which takes longer than the read timeout; open
    // it here, with the client's own timeout, so the preload reads Redis rather than timing out.
    sources.warmUpRedis();
    for (BoardDefinition board : registry.all()) {
      if (board.segmented() || local.get(board.name()) != null) {
        continue; // segment boards are loaded when read
      }
      reader
          .load(board.name())
          .ifPresentOrElse(
              served ->
                  log.info(
                      "Board '{}' v{} preloaded from {}",
                      board.name(),
                      served.snapshot().version(),
                      served.source().header()),
              () ->
                  log.info(
                      "Board '{}' has no snapshot yet; it is served once computed", board.name()));
    }
  }
}
