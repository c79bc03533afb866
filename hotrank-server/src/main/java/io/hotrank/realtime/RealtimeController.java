package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;
import java.util.Map;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/admin/boards/{name}/rebuild}: refills a leaderboard from the database's
 * counters (after Redis lost its data the folder does so by itself), or replays a window board's
 * window from the event log.
 */
@RestController
class RealtimeController {

  private final BoardRegistry registry;
  private final RealtimeFolds folds;

  RealtimeController(BoardRegistry registry, RealtimeFolds folds) {
    this.registry = registry;
    this.folds = folds;
  }

  @PostMapping("/api/v1/admin/boards/{name}/rebuild")
  Map<String, Object> rebuild(@PathVariable String name) {
    BoardDefinition board = registry.require(name);
    switch (board.type()) {
      case LEADERBOARD -> folds.rebuild(board, "an operator asked for it");
      case WINDOW -> folds.replayWindow(board);
      case BATCH -> throw new NotRealtimeException(name);
    }
    return Map.of("board", name, "type", board.type().configName(), "rebuilt", true);
  }

  /** Only realtime boards are rebuilt; a batch board is recomputed. */
  static final class NotRealtimeException extends HotrankException {

    static final ProblemType TYPE = new ProblemType(409, "not-realtime", "Not a realtime board");

    NotRealtimeException(String name) {
      super(
          TYPE,
          "Board '"
              + name
              + "' is a batch board; recompute it with POST /api/v1/admin/boards/"
              + name
              + "/recompute");
    }
  }
}
