package io.hotrank.explain;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.web.Operators;
import io.hotrank.web.UnauthorizedException;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/boards/{name}[/segments/{segment}]/items/{itemId}/explain}: public, for an
 * operator's token or off, as the board says ({@code hotrank.boards[i].explain}).
 */
@RestController
class ExplainController {

  private final BoardRegistry registry;
  private final BoardExplainer explainer;
  private final Operators operators;

  ExplainController(BoardRegistry registry, BoardExplainer explainer, Operators operators) {
    this.registry = registry;
    this.explainer = explainer;
    this.operators = operators;
  }

  @io.swagger.v3.oas.annotations.Operation(
      summary =
          "Why an item is where it is on a board (or a segment board): its rank or why it is not"
              + " listed, and every part of its score")
  @GetMapping({
    "/api/v1/boards/{name}/items/{itemId}/explain",
    "/api/v1/boards/{name}/segments/{segment}/items/{itemId}/explain"
  })
  ItemExplanation explain(
      @PathVariable String name,
      @PathVariable(required = false) @Nullable String segment,
      @PathVariable long itemId,
      @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false)
          @Nullable String authorization) {
    BoardDefinition board = registry.require(name);
    boolean operator = operators.authenticateHeader(authorization).isPresent();
    switch (board.explain()) {
      case OFF -> throw new ExplainOffException(name);
      case OPERATOR -> {
        if (!operator) {
          throw new UnauthorizedException(
              "Board '"
                  + name
                  + "' explains its items to operators: send 'Authorization: Bearer <operator"
                  + " token>'");
        }
      }
      case PUBLIC -> {}
    }
    return explainer.explain(name, segment, itemId, operator);
  }
}
