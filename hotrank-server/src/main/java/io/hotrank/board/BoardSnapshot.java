package io.hotrank.board;

import io.hotrank.item.Item;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One published version of a board, ready to serve: the JSON of every entry is rendered once, when
 * the snapshot is built, so that a read only copies bytes. Immutable and thread-safe; replaced as a
 * whole when a newer version is published, never modified.
 *
 * <p>The same JSON document (all entries) is the payload stored in Redis and in the database, and
 * {@link #parse} rebuilds an identical snapshot from it, so all three layers serve the same bytes
 * for a given version.
 */
public final class BoardSnapshot {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final byte[] TAIL = "]}".getBytes(StandardCharsets.US_ASCII);

  private final String board;
  private final @Nullable String segment;
  private final String key;
  private final long version;
  private final Instant computedAt;
  private final List<BoardEntry> entries;
  private final List<BoardEntry> reserve;
  private final byte[][] reserved;
  private final byte[] head;
  private final byte[][] items;
  private final int defaultLimit;
  private final byte[] defaultBody;
  private final String etag;
  private final String origin;

  private BoardSnapshot(
      String board,
      @Nullable String segment,
      long version,
      Instant computedAt,
      List<BoardEntry> entries,
      List<BoardEntry> reserve,
      int defaultLimit,
      String origin) {
    this.origin = origin;
    this.reserve = List.copyOf(reserve);
    this.reserved = new byte[reserve.size()][];
    for (int i = 0; i < reserved.length; i++) {
      reserved[i] = renderEntry(reserve.get(i));
    }
    this.board = board;
    this.segment = segment;
    this.key = key(board, segment);
    this.version = version;
    this.computedAt = computedAt;
    this.entries = List.copyOf(entries);
    this.head = renderHead(board, segment, version, computedAt, entries.size());
    this.items = new byte[entries.size()][];
    for (int i = 0; i < items.length; i++) {
      items[i] = renderEntry(entries.get(i));
    }
    this.defaultLimit = defaultLimit;
    this.defaultBody = render(0, defaultLimit);
    this.etag = "\"" + version + "\"";
  }

  /**
   * Builds a snapshot from ranked entries.
   *
   * @param entries ranked best first, ranks 1..n
   * @param defaultLimit the window served when a read names no limit; pre-rendered
   */
  public static BoardSnapshot of(
      String board, long version, Instant computedAt, List<BoardEntry> entries, int defaultLimit) {
    return of(board, version, computedAt, entries, List.of(), defaultLimit);
  }

  /**
   * Builds a snapshot from ranked entries and the candidates that did not make the board.
   *
   * @param reserve candidates below the last entry, best first: stored with the payload (never
   *     served) so that a re-publish after an operator's block can fill the board from them
   */
  public static BoardSnapshot of(
      String board,
      long version,
      Instant computedAt,
      List<BoardEntry> entries,
      List<BoardEntry> reserve,
      int defaultLimit) {
    return of(board, null, version, computedAt, entries, reserve, defaultLimit);
  }

  /**
   * Builds a snapshot of a board or, with a segment, of one segment board of a family.
   *
   * @param segment the segment of a segmented board; null for a board that is one board
   */
  public static BoardSnapshot of(
      String board,
      @Nullable String segment,
      long version,
      Instant computedAt,
      List<BoardEntry> entries,
      List<BoardEntry> reserve,
      int defaultLimit) {
    return new BoardSnapshot(
        board, segment, version, computedAt, entries, reserve, defaultLimit, "computed");
  }

  /**
   * The board of a segment nothing was ever published for: version 0, no entries, computed at the
   * epoch, so every such read renders the same bytes under the same ETag.
   */
  public static BoardSnapshot empty(String board, String segment, int defaultLimit) {
    return new BoardSnapshot(
        board, segment, 0, Instant.EPOCH, List.of(), List.of(), defaultLimit, "none");
  }

  /**
   * The key a board is stored under in every layer: its name, or for a segment board {@code
   * <name>/<segment>} (a name has no slash, so the first one splits the two).
   */
  public static String key(String board, @Nullable String segment) {
    return segment == null ? board : board + "/" + segment;
  }

  /**
   * Rebuilds a snapshot from the payload of another (from Redis or the database).
   *
   * @param origin where the payload came from ({@code redis}, {@code db}), for diagnostics
   * @throws IllegalArgumentException if the payload is not a board document
   */
  public static BoardSnapshot parse(byte[] payload, int defaultLimit, String origin) {
    try {
      JsonNode doc = JSON.readTree(payload);
      List<BoardEntry> entries = entries(doc.required("items"));
      JsonNode reserve = doc.get("reserve");
      JsonNode segment = doc.get("segment");
      return new BoardSnapshot(
          doc.required("board").asString(),
          segment == null || segment.isNull() ? null : segment.asString(),
          doc.required("version").asLong(),
          Instant.parse(doc.required("computedAt").asString()),
          entries,
          reserve == null ? List.of() : entries(reserve),
          defaultLimit,
          origin);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Not a board payload: " + e.getMessage(), e);
    }
  }

  private static List<BoardEntry> entries(JsonNode array) {
    List<BoardEntry> entries = new ArrayList<>();
    for (JsonNode e : array) {
      JsonNode c = e.required("counts");
      entries.add(
          new BoardEntry(
              e.required("rank").asInt(),
              e.required("biz").asString(),
              e.required("itemId").asLong(),
              e.required("score").asDouble(),
              e.required("title").asString(),
              e.required("authorId").asLong(),
              Instant.parse(e.required("createdAt").asString()),
              new Item.Counts(
                  c.required("like").asLong(),
                  c.required("view").asLong(),
                  c.required("comment").asLong(),
                  c.required("share").asLong(),
                  c.required("collect").asLong(),
                  c.required("dislike").asLong()),
              applied(e.get("control"))));
    }
    return entries;
  }

  private static BoardEntry.@Nullable Applied applied(@Nullable JsonNode control) {
    if (control == null || control.isNull()) {
      return null;
    }
    JsonNode position = control.get("position");
    JsonNode factor = control.get("factor");
    return new BoardEntry.Applied(
        ControlAction.fromWire(control.required("action").asString()),
        position == null || position.isNull() ? null : position.asInt(),
        factor == null || factor.isNull() ? null : factor.asDouble(),
        control.required("baseScore").asDouble());
  }

  public String board() {
    return board;
  }

  /** The segment of a segment board; null for a board that is one board. */
  public @Nullable String segment() {
    return segment;
  }

  /** The key it is stored under in every layer: see {@link #key(String, String)}. */
  public String key() {
    return key;
  }

  public long version() {
    return version;
  }

  public Instant computedAt() {
    return computedAt;
  }

  /**
   * Where this instance got the snapshot: {@code computed} here, or loaded from {@code redis} or
   * {@code db}. Sent as {@code X-Hotrank-Origin}.
   */
  public String origin() {
    return origin;
  }

  /** The HTTP entity tag of this version, quoted: {@code "<version>"}. */
  public String etag() {
    return etag;
  }

  /**
   * The body served when a read names no limit or offset (the caller must not modify it): what
   * static export writes.
   */
  public byte[] defaultBody() {
    return defaultBody;
  }

  /** The ranked entries, best first. */
  public List<BoardEntry> entries() {
    return entries;
  }

  /** The number of entries. */
  public int size() {
    return items.length;
  }

  /**
   * The candidates below the board's last entry, best first, kept for a re-publish (see {@link
   * #of(String, long, Instant, List, List, int)}); never served.
   */
  public List<BoardEntry> reserve() {
    return reserve;
  }

  /**
   * The JSON of one entry exactly as a board read renders it (its {@code control} only when one
   * shaped it, lowercase action), for responses that assemble pages of the board themselves, such
   * as the hot feed's cursor pages, so every view of a board renders its entries one way.
   *
   * @param index the entry's index, 0 for rank 1
   * @return a copy of the pre-rendered bytes, UTF-8
   */
  public byte[] entryJson(int index) {
    return items[index].clone();
  }

  /**
   * The whole board as one JSON document: what Redis and the database store. With a reserve, the
   * document has a {@code reserve} array after {@code items}.
   */
  public byte[] payload() {
    byte[] board = render(0, items.length);
    if (reserved.length == 0) {
      return board;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(board.length + 256 * reserved.length);
    out.write(board, 0, board.length - 1); // without the closing brace
    out.writeBytes(",\"reserve\":[".getBytes(StandardCharsets.US_ASCII));
    for (int i = 0; i < reserved.length; i++) {
      if (i > 0) {
        out.write(',');
      }
      out.writeBytes(reserved[i]);
    }
    out.writeBytes(TAIL);
    return out.toByteArray();
  }

  /**
   * The response body for a window of the board. The default window is pre-rendered and returned as
   * is (callers must not modify it); any other is assembled from pre-rendered entries.
   *
   * @param offset entries to skip, at least 0
   * @param limit entries to return at most, at least 1
   */
  public byte[] body(int offset, int limit) {
    if (offset == 0 && limit == defaultLimit) {
      return defaultBody;
    }
    return render(offset, limit);
  }

  private byte[] render(int offset, int limit) {
    int from = Math.min(offset, items.length);
    int to = (int) Math.min(items.length, (long) from + limit);
    int length = head.length + TAIL.length + Math.max(0, to - from - 1);
    for (int i = from; i < to; i++) {
      length += items[i].length;
    }
    byte[] body = new byte[length];
    System.arraycopy(head, 0, body, 0, head.length);
    int at = head.length;
    for (int i = from; i < to; i++) {
      if (i > from) {
        body[at++] = ',';
      }
      System.arraycopy(items[i], 0, body, at, items[i].length);
      at += items[i].length;
    }
    System.arraycopy(TAIL, 0, body, at, TAIL.length);
    return body;
  }

  private static byte[] renderHead(
      String board, @Nullable String segment, long version, Instant computedAt, int total) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringProperty("board", board);
      if (segment != null) {
        g.writeStringProperty("segment", segment);
      }
      g.writeNumberProperty("version", version);
      g.writeStringProperty("computedAt", computedAt.toString());
      g.writeNumberProperty("total", total);
      g.writeName("items");
      g.writeStartArray();
      g.writeEndArray();
      g.writeEndObject();
    }
    // The generator closes the array and object; cut them off so entries can be appended.
    byte[] closed = out.toByteArray();
    byte[] open = new byte[closed.length - 2];
    System.arraycopy(closed, 0, open, 0, open.length);
    return open;
  }

  private static byte[] renderEntry(BoardEntry e) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberProperty("rank", e.rank());
      g.writeStringProperty("biz", e.biz());
      g.writeNumberProperty("itemId", e.itemId());
      g.writeNumberProperty("score", e.score());
      g.writeStringProperty("title", e.title());
      g.writeNumberProperty("authorId", e.authorId());
      g.writeStringProperty("createdAt", e.createdAt().toString());
      g.writeName("counts");
      g.writeStartObject();
      g.writeNumberProperty("like", e.counts().like());
      g.writeNumberProperty("view", e.counts().view());
      g.writeNumberProperty("comment", e.counts().comment());
      g.writeNumberProperty("share", e.counts().share());
      g.writeNumberProperty("collect", e.counts().collect());
      g.writeNumberProperty("dislike", e.counts().dislike());
      g.writeEndObject();
      BoardEntry.Applied control = e.control();
      if (control != null) {
        g.writeName("control");
        g.writeStartObject();
        g.writeStringProperty("action", control.action().wireName());
        if (control.position() != null) {
          g.writeNumberProperty("position", control.position());
        }
        if (control.factor() != null) {
          g.writeNumberProperty("factor", control.factor());
        }
        g.writeNumberProperty("baseScore", control.baseScore());
        g.writeEndObject();
      }
      g.writeEndObject();
    }
    return out.toByteArray();
  }
}
