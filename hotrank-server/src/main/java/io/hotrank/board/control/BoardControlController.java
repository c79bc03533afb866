package io.hotrank.board.control;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardControls;
import io.hotrank.board.ControlAction;
import io.hotrank.board.ControlChange;
import io.hotrank.problem.Violations;
import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Set;
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
 * The admin API of board controls: {@code PUT} and {@code DELETE
 * /api/v1/admin/boards/{name}/controls/{itemId}}, {@code GET /api/v1/admin/boards/{name}/controls}.
 * The body is read field by field, so that an unknown field or a value of the wrong type is a 400
 * naming it, like every semantic violation; the actor is the authenticated operator.
 */
@RestController
@RequestMapping("/api/v1/admin/boards/{name}/controls")
class BoardControlController {

  private static final Set<String> FIELDS =
      Set.of("action", "position", "factor", "expiresAt", "reason");

  private final BoardControls controls;

  BoardControlController(BoardControls controls) {
    this.controls = controls;
  }

  @GetMapping
  ControlJson.Listing list(@PathVariable String name) {
    return new ControlJson.Listing(
        name, null, controls.list(name).stream().map(ControlJson::of).toList());
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
    BoardControl stored = controls.set(name, itemId, change(body), operator.name());
    return ControlJson.of(stored);
  }

  @AdminAction(Role.OPERATOR)
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "204",
      description = "Removed, or the item had no control")
  @DeleteMapping("/{itemId}")
  ResponseEntity<Void> remove(
      @PathVariable String name,
      @PathVariable long itemId,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    controls.remove(name, itemId, reason, operator.name());
    return ResponseEntity.noContent().build();
  }

  /**
   * The change a body asks for, its JSON types checked; its meaning is checked by {@link
   * BoardControls#set}.
   *
   * @throws io.hotrank.problem.InvalidRequestException naming each field of the wrong type or
   *     unknown
   */
  static ControlChange change(JsonNode body) {
    Violations violations = new Violations();
    if (!body.isObject()) {
      violations.add("body", "must be a JSON object");
      violations.throwIfAny();
    }
    for (String field : body.propertyNames()) {
      violations.check(
          FIELDS.contains(field),
          field,
          "is not a field of a control; expected action, position, factor, expiresAt, reason");
    }
    ControlAction action = null;
    JsonNode actionNode = present(body, "action");
    if (actionNode != null) {
      String wire = actionNode.isString() ? actionNode.asString() : "";
      try {
        action =
            wire.equals(wire.toLowerCase(Locale.ROOT)) && !wire.isEmpty()
                ? ControlAction.fromWire(wire)
                : null;
      } catch (IllegalArgumentException unknown) {
        action = null;
      }
      violations.check(action != null, "action", "must be one of pin, boost, block, second-chance");
    }
    Integer position = null;
    JsonNode positionNode = present(body, "position");
    if (positionNode != null
        && violations.check(
            positionNode.isIntegralNumber() && positionNode.canConvertToInt(),
            "position",
            "must be an integer")) {
      position = positionNode.asInt();
    }
    Double factor = null;
    JsonNode factorNode = present(body, "factor");
    if (factorNode != null
        && violations.check(factorNode.isNumber(), "factor", "must be a number")) {
      factor = factorNode.asDouble();
    }
    Instant expiresAt = null;
    JsonNode expiresNode = present(body, "expiresAt");
    if (expiresNode != null) {
      expiresAt = instant(expiresNode);
      violations.check(
          expiresAt != null,
          "expiresAt",
          "must be an RFC 3339 timestamp such as 2026-12-01T10:00:00Z");
    }
    String reason = null;
    JsonNode reasonNode = present(body, "reason");
    if (reasonNode != null
        && violations.check(reasonNode.isString(), "reason", "must be a string")) {
      reason = reasonNode.asString();
    }
    violations.throwIfAny();
    return new ControlChange(action, position, factor, expiresAt, reason);
  }

  private static @Nullable JsonNode present(JsonNode body, String field) {
    JsonNode node = body.get(field);
    return node == null || node.isNull() ? null : node;
  }

  private static @Nullable Instant instant(JsonNode node) {
    if (!node.isString()) {
      return null;
    }
    try {
      return DateTimeFormatter.ISO_INSTANT.parse(node.asString().strip(), Instant::from);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
