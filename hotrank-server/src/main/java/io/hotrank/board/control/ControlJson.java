package io.hotrank.board.control;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardKey;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A control as JSON, the same in the HTTP answers and in the audit entries' before and after, with
 * {@code null} for what the action does not use.
 *
 * @param board the board's name
 * @param segment the segment of a segment board's own control; absent for a board's
 */
@io.swagger.v3.oas.annotations.media.Schema(name = "Control")
record ControlJson(
    String board,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String segment,
    long itemId,
    @Schema(allowableValues = {"pin", "boost", "block", "second-chance"}) String action,
    @Nullable Integer position,
    @Nullable Double factor,
    @Schema(format = "date-time") @Nullable String expiresAt,
    String reason,
    String actor,
    @Schema(format = "date-time") String setAt) {

  /** The document's words for a set control's 200, on a board and on a segment board alike. */
  static final String STORED = "The control, stored and shown in the board's reads";

  /** The document's words for a control change's 409s. */
  static final String CONFLICTS =
      "pin-limit: the board has max-pins live pins; second-chance-used: the item had its second"
          + " chance on the board; or a request with the same Idempotency-Key is in progress";

  static ControlJson of(BoardControl control) {
    // A segment board's own control is stored under "<board>/<segment>": shown as both fields.
    BoardKey key = BoardKey.parse(control.board());
    return new ControlJson(
        key.board(),
        key.segment(),
        control.itemId(),
        control.action().wireName(),
        control.position(),
        control.factor(),
        control.expiresAt() == null ? null : control.expiresAt().toString(),
        control.reason(),
        control.actor(),
        control.setAt().toString());
  }

  /** A board's (or a segment board's) live controls. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "ControlListing")
  record Listing(
      String board,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String segment,
      List<ControlJson> controls) {}

  /**
   * The body of {@code PUT .../controls/{itemId}}, as the document describes it (the controller
   * reads it field by field, to name each unknown or mistyped field).
   */
  @Schema(
      name = "ControlRequest",
      requiredProperties = {"action", "reason"})
  record Request(
      @Schema(
              allowableValues = {"pin", "boost", "block", "second-chance"},
              description = "replaces the item's previous control on the board")
          String action,
      @Schema(description = "a pin's rank, 1 to the board's size; only for a pin", minimum = "1")
          @Nullable Integer position,
      @Schema(
              description =
                  "a boost's factor, 0.000001 to 1000000 (below 1 demotes); only for a boost",
              minimum = "0.000001",
              maximum = "1000000")
          @Nullable Double factor,
      @Schema(
              format = "date-time",
              description =
                  "when the control lapses, in the future, at most 10 years ahead; none for a"
                      + " second chance (it lasts one window of the board)")
          @Nullable String expiresAt,
      @Schema(description = "why, 1 to 500 characters, kept in the audit log", maxLength = 500)
          String reason) {}
}
