package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The realtime boards of this deployment, each with the kind that keeps it. Immutable. */
final class RealtimeBoards {

  /** A realtime board and its kind. */
  record Kept(BoardDefinition board, RealtimeKind kind) {}

  private final Map<String, Kept> byName = new LinkedHashMap<>();

  /**
   * @throws IllegalStateException when no kind keeps one of the registry's realtime boards
   */
  RealtimeBoards(BoardRegistry registry, List<RealtimeKind> kinds) {
    for (BoardDefinition board : registry.all()) {
      if (!board.realtime()) {
        continue;
      }
      RealtimeKind kind =
          kinds.stream()
              .filter(k -> k.keeps(board))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "Board '"
                              + board.name()
                              + "' is of type "
                              + board.kind().configName()
                              + ", which no realtime kind keeps"));
      byName.put(board.name(), new Kept(board, kind));
    }
  }

  /** Every realtime board, in declaration order. */
  List<Kept> all() {
    return List.copyOf(byName.values());
  }

  /** The realtime board of this name; empty for a batch board or none. */
  Optional<Kept> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }
}
