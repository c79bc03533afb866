package io.hotrank.board.control;

import io.hotrank.board.BoardControls;
import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * The admin API of one segment board's own controls: {@code PUT} and {@code DELETE
 * /api/v1/admin/boards/{name}/segments/{segment}/controls/{itemId}}, {@code GET
 * /api/v1/admin/boards/{name}/segments/{segment}/controls}. Bodies, rules, roles and audit as on
 * {@link BoardControlController}; the family's controls, which apply to every segment, are the
 * board's own.
 */
@RestController
@RequestMapping("/api/v1/admin/boards/{name}/segments/{segment}/controls")
class SegmentControlController {

  private final BoardControls controls;

  SegmentControlController(BoardControls controls) {
    this.controls = controls;
  }

  @GetMapping
  ControlJson.Listing list(@PathVariable String name, @PathVariable String segment) {
    return new ControlJson.Listing(
        name, segment, controls.list(name, segment).stream().map(ControlJson::of).toList());
  }

  @AdminAction(Role.OPERATOR)
  @PutMapping("/{itemId}")
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "200",
      description = ControlJson.STORED,
      useReturnTypeSchema = true)
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "409",
      description = ControlJson.CONFLICTS,
      content =
          @io.swagger.v3.oas.annotations.media.Content(
              mediaType = "application/problem+json",
              schema =
                  @io.swagger.v3.oas.annotations.media.Schema(
                      ref = "#/components/schemas/Problem")))
  ControlJson set(
      @PathVariable String name,
      @PathVariable String segment,
      @PathVariable long itemId,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = true,
              content =
                  @io.swagger.v3.oas.annotations.media.Content(
                      schema =
                          @io.swagger.v3.oas.annotations.media.Schema(
                              implementation = ControlJson.Request.class)))
          @RequestBody
          JsonNode body,
      Operator operator) {
    return ControlJson.of(
        controls.set(name, segment, itemId, BoardControlController.change(body), operator.name()));
  }

  @AdminAction(Role.OPERATOR)
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "204",
      description = "Removed, or the item had no control")
  @DeleteMapping("/{itemId}")
  ResponseEntity<Void> remove(
      @PathVariable String name,
      @PathVariable String segment,
      @PathVariable long itemId,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    controls.remove(name, segment, itemId, reason, operator.name());
    return ResponseEntity.noContent().build();
  }
}
