package io.hotrank.board.compute;

import io.hotrank.board.BoardSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /api/v1/admin/boards/{name}/recompute}: compute and publish a board now. */
@RestController
class BoardAdminController {

  private final BoardRecomputer recomputer;

  BoardAdminController(BoardRecomputer recomputer) {
    this.recomputer = recomputer;
  }

  @PostMapping("/api/v1/admin/boards/{name}/recompute")
  Map<String, Object> recompute(@PathVariable String name) {
    BoardSnapshot published = recomputer.recompute(name);
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("board", published.board());
    view.put("version", published.version());
    view.put("computedAt", published.computedAt().toString());
    view.put("size", published.size());
    return view;
  }
}
