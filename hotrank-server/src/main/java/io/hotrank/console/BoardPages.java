package io.hotrank.console;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardControls;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSink;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.ControlAction;
import io.hotrank.board.ControlChange;
import io.hotrank.problem.HotrankException;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The boards: the list (type, version, computed-at, age, where this instance's snapshot came from
 * and its reads by layer), a board's page with its items polled every second as a fragment, its
 * live controls, and the form that pins, boosts, blocks or removes a control through {@link
 * BoardControls}, the service the admin API uses, which writes the audit entry with the operator's
 * name. A refused action answers the board's page again with the problem's status and {@code
 * detail}.
 */
@Controller
class BoardPages {

  private static final List<String> LAYERS = List.of("local", "redis", "db");

  private final BoardRegistry registry;
  private final BoardSink boards;
  private final BoardControls controls;
  private final MeterRegistry meters;
  private final Clock clock;

  BoardPages(
      BoardRegistry registry,
      BoardSink boards,
      BoardControls controls,
      MeterRegistry meters,
      Clock clock) {
    this.registry = registry;
    this.boards = boards;
    this.controls = controls;
    this.meters = meters;
    this.clock = clock;
  }

  @GetMapping(ConsolePaths.ROOT + "/boards")
  String list(Model model) {
    Instant now = clock.instant();
    model.addAttribute(
        "boards",
        registry.all().stream()
            .map(b -> BoardViews.row(b, boards.current(b.name()), reads(b.name()), now))
            .toList());
    return "console/boards";
  }

  @GetMapping(ConsolePaths.ROOT + "/boards/{name}")
  String board(
      @PathVariable String name, @RequestParam(required = false) @Nullable Long item, Model model) {
    BoardDefinition board = registry.require(name);
    boardModel(board, model);
    model.addAttribute("item", item);
    return "console/board";
  }

  /**
   * The live part of a board's page, which the page polls every second with the version it shows:
   * 204 (htmx then leaves the page alone) while the board has no other version, so that the rows an
   * operator is about to click are not replaced by identical ones.
   */
  @GetMapping(ConsolePaths.ROOT + "/boards/{name}/items")
  @Nullable String items(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable Long seen,
      Model model,
      HttpServletResponse response) {
    BoardDefinition board = registry.require(name);
    BoardSnapshot snapshot = boards.current(board.name());
    if (seen != null && snapshot != null && snapshot.version() == seen) {
      response.setStatus(HttpServletResponse.SC_NO_CONTENT);
      return null; // handled: no body
    }
    itemsModel(board, model);
    return "console/board :: items";
  }

  @PostMapping(ConsolePaths.ROOT + "/boards/{name}/controls")
  String control(
      @PathVariable String name,
      @RequestParam(defaultValue = "") String itemId,
      @RequestParam(defaultValue = "") String action,
      @RequestParam(defaultValue = "") String position,
      @RequestParam(defaultValue = "") String factor,
      @RequestParam(defaultValue = "") String expiresAt,
      @RequestParam(defaultValue = "") String reason,
      Operator operator,
      HttpServletResponse response,
      Model model) {
    BoardDefinition board = registry.require(name);
    try {
      ConsoleForbiddenException.require(operator, Role.OPERATOR);
      long item = longField("itemId", itemId);
      if (action.equals("remove")) {
        controls.remove(board.name(), item, reason.isBlank() ? null : reason, operator.name());
      } else {
        ControlChange change =
            new ControlChange(
                action(action),
                position.isBlank() ? null : intField("position", position),
                factor.isBlank() ? null : doubleField("factor", factor),
                expiresAt.isBlank() ? null : instantField("expiresAt", expiresAt),
                reason);
        controls.set(board.name(), item, change, operator.name());
      }
    } catch (HotrankException e) {
      response.setStatus(e.type().status());
      model.addAttribute("problem", e.problem());
      model.addAttribute("item", itemId.isBlank() ? null : itemId);
      boardModel(board, model);
      return "console/board";
    }
    return "redirect:" + ConsolePaths.ROOT + "/boards/" + board.name();
  }

  private void boardModel(BoardDefinition board, Model model) {
    itemsModel(board, model);
    model.addAttribute(
        "row",
        BoardViews.row(board, boards.current(board.name()), reads(board.name()), clock.instant()));
  }

  private void itemsModel(BoardDefinition board, Model model) {
    BoardSnapshot snapshot = boards.current(board.name());
    List<BoardControl> live = controls.list(board.name());
    model.addAttribute("board", board);
    model.addAttribute("snapshot", snapshot);
    model.addAttribute("items", BoardViews.items(snapshot, live));
    model.addAttribute("controls", live);
  }

  private Map<String, Long> reads(String board) {
    Map<String, Long> reads = new LinkedHashMap<>();
    for (String layer : LAYERS) {
      Counter counter =
          meters.find("hotrank.board.reads").tag("board", board).tag("source", layer).counter();
      reads.put(layer, counter == null ? 0 : (long) counter.count());
    }
    return reads;
  }

  private static ControlAction action(String text) {
    try {
      return ControlAction.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("action", "must be pin, boost, block or remove");
    }
  }

  private static long longField(String field, String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw new InvalidRequestException(field, "must be a whole number");
    }
  }

  private static int intField(String field, String text) {
    try {
      return Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      throw new InvalidRequestException(field, "must be a whole number");
    }
  }

  private static double doubleField(String field, String text) {
    try {
      return Double.parseDouble(text.strip());
    } catch (NumberFormatException e) {
      throw new InvalidRequestException(field, "must be a number");
    }
  }

  private static Instant instantField(String field, String text) {
    try {
      return Instant.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new InvalidRequestException(
          field, "must be an RFC 3339 instant, e.g. 2030-01-01T00:00:00Z");
    }
  }
}
