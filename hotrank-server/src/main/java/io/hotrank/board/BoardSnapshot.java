package io.hotrank.board;

import io.hotrank.item.Item;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
  private final long version;
  private final Instant computedAt;
  private final List<BoardEntry> entries;
  private final byte[] head;
  private final byte[][] items;
  private final int defaultLimit;
  private final byte[] defaultBody;
  private final String etag;
  private final String origin;

  private BoardSnapshot(
      String board,
      long version,
      Instant computedAt,
      List<BoardEntry> entries,
      int defaultLimit,
      String origin) {
    this.origin = origin;
    this.board = board;
    this.version = version;
    this.computedAt = computedAt;
    this.entries = List.copyOf(entries);
    this.head = renderHead(board, version, computedAt, entries.size());
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
    return new BoardSnapshot(board, version, computedAt, entries, defaultLimit, "computed");
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
      List<BoardEntry> entries = new ArrayList<>();
      for (JsonNode e : doc.required("items")) {
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
                    c.required("dislike").asLong())));
      }
      return new BoardSnapshot(
          doc.required("board").asString(),
          doc.required("version").asLong(),
          Instant.parse(doc.required("computedAt").asString()),
          entries,
          defaultLimit,
          origin);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Not a board payload: " + e.getMessage(), e);
    }
  }

  public String board() {
    return board;
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

  /** The whole board as one JSON document: what Redis and the database store. */
  public byte[] payload() {
    return render(0, items.length);
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

  private static byte[] renderHead(String board, long version, Instant computedAt, int total) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringProperty("board", board);
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
      g.writeEndObject();
    }
    return out.toByteArray();
  }
}
