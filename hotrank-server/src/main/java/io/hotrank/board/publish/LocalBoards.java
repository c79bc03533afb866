package io.hotrank.board.publish;

import io.hotrank.board.BoardInstalled;
import io.hotrank.board.BoardSnapshot;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
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

  /** The newest snapshot of a board held here; null when none is. Allocates nothing. */
  public @Nullable BoardSnapshot get(String board) {
    return snapshots.get(board);
  }

  /**
   * Installs a snapshot unless an equal or newer version is held, then announces it with a {@link
   * BoardInstalled} event.
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
    events.publishEvent(new BoardInstalled(snapshot));
    return true;
  }

  /** The version held for a board, 0 if none. */
  public long version(String board) {
    BoardSnapshot held = snapshots.get(board);
    return held == null ? 0 : held.version();
  }
}
