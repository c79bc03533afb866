package io.hotrank.board.compute;

import io.hotrank.board.BoardSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/admin/boards/{name}/recompute}: compute and publish a board now, under its
 * lease (409 if another instance holds it past a bounded wait).
 */
@RestController
class BoardAdminController {

  private final BoardJobs jobs;

  BoardAdminController(BoardJobs jobs) {
    this.jobs = jobs;
  }

  @PostMapping("/api/v1/admin/boards/{name}/recompute")
  Map<String, Object> recompute(@PathVariable String name) {
    BoardSnapshot published = jobs.recompute(name);
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("board", published.board());
    view.put("version", published.version());
    view.put("computedAt", published.computedAt().toString());
    view.put("size", published.size());
    return view;
  }
}
