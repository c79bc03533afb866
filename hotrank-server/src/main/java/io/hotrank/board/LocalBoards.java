package io.hotrank.board;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * The first level of the read path: this instance's newest snapshot of each board. Entries never
 * expire; they are only replaced by a newer version, so a read that finds one needs no other layer
 * and takes no lock. Thread-safe.
 */
@Component
public class LocalBoards {

  private final ConcurrentHashMap<String, BoardSnapshot> snapshots = new ConcurrentHashMap<>();
  private final ApplicationEventPublisher events;

  LocalBoards(ApplicationEventPublisher events) {
    this.events = events;
  }

  /** Announced, in the installing thread, each time a newer snapshot replaces the local one. */
  public record Installed(BoardSnapshot snapshot) {}

  /** The newest snapshot of a board held here. */
  public Optional<BoardSnapshot> get(String board) {
    return Optional.ofNullable(snapshots.get(board));
  }

  /** The newest snapshot of a board held here, or null; for the allocation-free read path. */
  BoardSnapshot getOrNull(String board) {
    return snapshots.get(board);
  }

  /**
   * Installs a snapshot unless an equal or newer version is held, then announces it with an {@link
   * Installed} event.
   *
   * @return true if it was installed
   */
  public boolean install(BoardSnapshot snapshot) {
    BoardSnapshot held =
        snapshots.merge(
            snapshot.board(),
            snapshot,
            (current, offered) -> offered.version() > current.version() ? offered : current);
    if (held != snapshot) {
      return false;
    }
    events.publishEvent(new Installed(snapshot));
    return true;
  }

  /** The version held for a board, 0 if none. */
  public long version(String board) {
    BoardSnapshot held = snapshots.get(board);
    return held == null ? 0 : held.version();
  }
}
