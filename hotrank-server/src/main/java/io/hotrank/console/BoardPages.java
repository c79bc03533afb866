package io.hotrank.console;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardControls;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSegments;
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
  private final BoardSegments segments;
  private final MeterRegistry meters;
  private final Clock clock;

  BoardPages(
      BoardRegistry registry,
      BoardSink boards,
      BoardControls controls,
      BoardSegments segments,
      MeterRegistry meters,
      Clock clock) {
    this.segments = segments;
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

  /** How many segments a family's page lists, most entries first. */
  static final int SEGMENTS_SHOWN = 100;

  @GetMapping(ConsolePaths.ROOT + "/boards/{name}")
  String board(
      @PathVariable String name,
      @RequestParam(required = false) @Nullable Long item,
      @RequestParam(required = false) @Nullable String q,
      Model model) {
    BoardDefinition board = registry.require(name);
    if (board.segmented()) {
      model.addAttribute("board", board);
      model.addAttribute("base", base(board, null));
      model.addAttribute("segment", null);
      model.addAttribute("q", q == null ? "" : q.strip());
      model.addAttribute(
          "segments",
          segments.list(board.name(), q == null ? null : q.strip(), SEGMENTS_SHOWN).stream()
              .map(
                  s ->
                      new SegmentLink(
                          s.segment(), s.items(), s.version(), base(board, s.segment())))
              .toList());
      model.addAttribute("row", BoardViews.row(board, null, reads(board.name()), clock.instant()));
      model.addAttribute("controls", controls.list(board.name()));
      model.addAttribute("item", item);
      return "console/board";
    }
    boardModel(board, null, model);
    model.addAttribute("item", item);
    return "console/board";
  }

  /** A segment as a family's page lists it, with the path of its page. */
  record SegmentLink(String segment, int items, long version, String href) {}

  /** One segment board of a family: its items, polled like a board's, and its own controls. */
  @GetMapping(ConsolePaths.ROOT + "/boards/{name}/segments/{segment}")
  String segment(
      @PathVariable String name,
      @PathVariable String segment,
      @RequestParam(required = false) @Nullable Long item,
      Model model) {
    BoardDefinition board = registry.require(name);
    boardModel(board, segment, model);
    model.addAttribute("item", item);
    return "console/board";
  }

  @GetMapping(ConsolePaths.ROOT + "/boards/{name}/segments/{segment}/items")
  @Nullable String segmentItems(
      @PathVariable String name,
      @PathVariable String segment,
      @RequestParam(required = false) @Nullable Long seen,
      Model model,
      HttpServletResponse response) {
    BoardDefinition board = registry.require(name);
    BoardSnapshot snapshot = segments.read(board.name(), segment);
    if (seen != null && snapshot.version() == seen) {
      response.setStatus(HttpServletResponse.SC_NO_CONTENT);
      return null; // handled: no body
    }
    itemsModel(board, segment, model);
    return "console/board :: items";
  }

  @PostMapping(ConsolePaths.ROOT + "/boards/{name}/segments/{segment}/controls")
  String segmentControl(
      @PathVariable String name,
      @PathVariable String segment,
      @RequestParam(defaultValue = "") String itemId,
      @RequestParam(defaultValue = "") String action,
      @RequestParam(defaultValue = "") String position,
      @RequestParam(defaultValue = "") String factor,
      @RequestParam(defaultValue = "") String expiresAt,
      @RequestParam(defaultValue = "") String reason,
      Operator operator,
      HttpServletResponse response,
      Model model) {
    return applyControl(
        registry.require(name),
        segment,
        itemId,
        action,
        position,
        factor,
        expiresAt,
        reason,
        operator,
        response,
        model);
  }

  /** The console path of a board's page, or of one segment board's, its segment encoded. */
  private static String base(BoardDefinition board, @Nullable String segment) {
    String base = ConsolePaths.ROOT + "/boards/" + board.name();
    return segment == null
        ? base
        : base
            + "/segments/"
            + org.springframework.web.util.UriUtils.encodePathSegment(
                segment, java.nio.charset.StandardCharsets.UTF_8);
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
    itemsModel(board, null, model);
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
    return applyControl(
        registry.require(name),
        null,
        itemId,
        action,
        position,
        factor,
        expiresAt,
        reason,
        operator,
        response,
        model);
  }

  private String applyControl(
      BoardDefinition board,
      @Nullable String segment,
      String itemId,
      String action,
      String position,
      String factor,
      String expiresAt,
      String reason,
      Operator operator,
      HttpServletResponse response,
      Model model) {
    try {
      ConsoleForbiddenException.require(operator, Role.OPERATOR);
      long item = longField("itemId", itemId);
      if (action.equals("remove")) {
        controls.remove(
            board.name(), segment, item, reason.isBlank() ? null : reason, operator.name());
      } else {
        ControlChange change =
            new ControlChange(
                action(action),
                position.isBlank() ? null : intField("position", position),
                factor.isBlank() ? null : doubleField("factor", factor),
                expiresAt.isBlank() ? null : instantField("expiresAt", expiresAt),
                reason);
        controls.set(board.name(), segment, item, change, operator.name());
      }
    } catch (HotrankException e) {
      response.setStatus(e.type().status());
      model.addAttribute("problem", e.problem());
      model.addAttribute("item", itemId.isBlank() ? null : itemId);
      boardModel(board, segment, model);
      return "console/board";
    }
    return "redirect:" + base(board, segment);
  }

  private void boardModel(BoardDefinition board, @Nullable String segment, Model model) {
    BoardSnapshot snapshot = itemsModel(board, segment, model);
    model.addAttribute(
        "row", BoardViews.row(board, snapshot, reads(board.name()), clock.instant()));
  }

  private @Nullable BoardSnapshot itemsModel(
      BoardDefinition board, @Nullable String segment, Model model) {
    BoardSnapshot snapshot =
        segment == null ? boards.current(board.name()) : segments.read(board.name(), segment);
    List<BoardControl> live = controls.list(board.name(), segment);
    model.addAttribute("board", board);
    model.addAttribute("segment", segment);
    model.addAttribute("segments", null);
    model.addAttribute("base", base(board, segment));
    model.addAttribute("snapshot", snapshot);
    model.addAttribute("items", BoardViews.items(snapshot, live));
    model.addAttribute("controls", live);
    return snapshot;
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
      return ControlAction.fromWire(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(
          "action", "must be pin, boost, block, second-chance or remove");
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
