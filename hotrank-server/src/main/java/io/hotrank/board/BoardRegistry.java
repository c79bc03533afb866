package io.hotrank.board;

import io.hotrank.item.DeclaredBizes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The boards of this deployment, validated once at startup: a bad declaration stops the service
 * with a message naming the property. Immutable and thread-safe.
 */
@Component
public class BoardRegistry implements DeclaredBizes {

  private static final Logger log = LoggerFactory.getLogger(BoardRegistry.class);

  private final Map<String, BoardDefinition> boards;
  private final List<BoardDefinition> ordered;

  BoardRegistry(BoardSpec.Declared declared) {
    Map<String, BoardDefinition> byName = new LinkedHashMap<>();
    List<String> duplicates = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < declared.boards().size(); i++) {
      BoardDefinition board =
          BoardDefinition.from(declared.boards().get(i), "hotrank.boards[" + i + "]");
      if (!seen.add(board.name())) {
        duplicates.add("hotrank.boards[" + i + "].name='" + board.name() + "' is declared twice");
      }
      byName.put(board.name(), board);
    }
    if (!duplicates.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid board configuration: " + String.join("; ", duplicates));
    }
    this.boards = Map.copyOf(byName);
    this.ordered = List.copyOf(byName.values());
    ordered.forEach(
        b ->
            log.info(
                "Board '{}': biz={} algorithm={} window={} size={} refresh='{}'",
                b.name(),
                b.biz(),
                b.algorithm(),
                b.window(),
                b.size(),
                b.refresh()));
  }

  /** The boards' bizes: items of a board's biz are known without {@code hotrank.bizes}. */
  @Override
  public Collection<String> bizes() {
    return ordered.stream().map(BoardDefinition::biz).distinct().toList();
  }

  /** Every board, in declaration order. */
  public List<BoardDefinition> all() {
    return ordered;
  }

  /** The board of this name, if configured. */
  public Optional<BoardDefinition> find(String name) {
    return Optional.ofNullable(boards.get(name));
  }

  /**
   * The board of this name.
   *
   * @throws BoardNotFoundException if none is configured
   */
  public BoardDefinition require(String name) {
    return find(name).orElseThrow(() -> new BoardNotFoundException(name));
  }
}
