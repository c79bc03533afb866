package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardSnapshot;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * A board's top entries as a feed a reader subscribes to: Atom 1.0 (RFC 4287) or JSON Feed 1.1.
 * Each entry's id names the item ({@code urn:hotrank:item:<biz>:<id>}), the same on every board and
 * version, so that a reader shows an item once however often it moves; its title is the item's, its
 * text says its rank and score, and it links to {@code hotrank.boards[i].item-url} when the board
 * names one. The feed's {@code updated} is when the served version was computed; an entry's is the
 * item's creation (an item moving on the board is not news to a reader). Stateless.
 */
final class BoardFeeds {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final XMLOutputFactory XML = XMLOutputFactory.newFactory();
  private static final String ATOM = "http://www.w3.org/2005/Atom";

  private BoardFeeds() {}

  /** The feed's id: the board, or one segment board. */
  static String feedId(BoardSnapshot snapshot) {
    return "urn:hotrank:board:"
        + snapshot.board()
        + (snapshot.segment() == null ? "" : ":" + snapshot.segment());
  }

  /** An entry's id: its item, the same on every board and version. */
  static String entryId(BoardEntry entry) {
    return "urn:hotrank:item:" + entry.biz() + ":" + entry.itemId();
  }

  private static String title(BoardSnapshot snapshot) {
    return "hotrank: "
        + snapshot.board()
        + (snapshot.segment() == null ? "" : " (" + snapshot.segment() + ")");
  }

  private static String text(BoardEntry entry) {
    return String.format(
        Locale.ROOT,
        "Rank %d, score %s: %d likes, %d views, %d comments, %d shares.",
        entry.rank(),
        score(entry.score()),
        entry.counts().like(),
        entry.counts().view(),
        entry.counts().comment(),
        entry.counts().share());
  }

  /** When the served version was computed; a segment with no entry yet has none: the epoch. */
  private static Instant updated(BoardSnapshot snapshot) {
    return snapshot.computedAt().truncatedTo(ChronoUnit.MILLIS);
  }

  /**
   * The Atom document of the first {@code limit} entries after {@code offset}.
   *
   * @param self the feed's own URL, for its {@code rel="self"} link
   */
  static byte[] atom(
      BoardDefinition board, BoardSnapshot snapshot, int offset, int limit, String self) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      XMLStreamWriter xml = XML.createXMLStreamWriter(out, "UTF-8");
      xml.writeStartDocument("UTF-8", "1.0");
      xml.writeStartElement("feed");
      xml.writeDefaultNamespace(ATOM);
      element(xml, "id", feedId(snapshot));
      element(xml, "title", title(snapshot));
      element(xml, "updated", updated(snapshot).toString());
      link(xml, "self", self, "application/atom+xml");
      xml.writeStartElement("author");
      element(xml, "name", "hotrank");
      xml.writeEndElement();
      element(xml, "generator", "hotrank");
      for (BoardEntry entry : window(snapshot, offset, limit)) {
        xml.writeStartElement("entry");
        element(xml, "id", entryId(entry));
        element(xml, "title", entry.title());
        element(xml, "updated", entry.createdAt().toString());
        element(xml, "published", entry.createdAt().toString());
        String url = board.itemUrl(entry.itemId());
        if (url != null) {
          link(xml, "alternate", url, null);
        }
        xml.writeStartElement("content");
        xml.writeAttribute("type", "text");
        xml.writeCharacters(xmlText(text(entry)));
        xml.writeEndElement();
        xml.writeEndElement();
      }
      xml.writeEndElement();
      xml.writeEndDocument();
      xml.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("writing the Atom feed of " + snapshot.key(), e);
    }
    return out.toByteArray();
  }

  /**
   * The JSON Feed document of the first {@code limit} entries after {@code offset}.
   *
   * @param self the feed's own URL ({@code feed_url})
   */
  static byte[] json(
      BoardDefinition board, BoardSnapshot snapshot, int offset, int limit, String self) {
    Map<String, Object> feed = new LinkedHashMap<>();
    feed.put("version", "https://jsonfeed.org/version/1.1");
    feed.put("title", title(snapshot));
    feed.put("feed_url", self);
    feed.put("description", "The top of the hotrank board " + snapshot.key());
    feed.put("authors", List.of(Map.of("name", "hotrank")));
    feed.put(
        "_hotrank",
        Map.of(
            "board", snapshot.board(),
            "version", snapshot.version(),
            "computedAt", updated(snapshot).toString()));
    List<Map<String, Object>> items = new ArrayList<>();
    for (BoardEntry entry : window(snapshot, offset, limit)) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("id", entryId(entry));
      String url = board.itemUrl(entry.itemId());
      if (url != null) {
        item.put("url", url);
      }
      item.put("title", entry.title());
      item.put("content_text", text(entry));
      item.put("date_published", entry.createdAt().toString());
      item.put(
          "_hotrank",
          Map.of(
              "rank", entry.rank(),
              "score", entry.score(),
              "biz", entry.biz(),
              "itemId", entry.itemId()));
      items.add(item);
    }
    feed.put("items", items);
    return JSON.writeValueAsBytes(feed);
  }

  private static List<BoardEntry> window(BoardSnapshot snapshot, int offset, int limit) {
    List<BoardEntry> entries = snapshot.entries();
    int from = Math.min(offset, entries.size());
    return entries.subList(from, Math.min(entries.size(), from + limit));
  }

  private static void element(XMLStreamWriter xml, String name, String text)
      throws XMLStreamException {
    xml.writeStartElement(name);
    xml.writeCharacters(xmlText(text));
    xml.writeEndElement();
  }

  private static void link(XMLStreamWriter xml, String rel, String href, @Nullable String type)
      throws XMLStreamException {
    xml.writeEmptyElement("link");
    xml.writeAttribute("rel", rel);
    xml.writeAttribute("href", href);
    if (type != null) {
      xml.writeAttribute("type", type);
    }
  }

  /** A score as plain text: six significant digits, no exponent. */
  private static String score(double score) {
    return new java.math.BigDecimal(score)
        .round(new java.math.MathContext(6))
        .stripTrailingZeros()
        .toPlainString();
  }

  /** Text without the characters XML 1.0 cannot hold (control characters a title may carry). */
  private static String xmlText(String text) {
    StringBuilder clean = new StringBuilder(text.length());
    text.codePoints()
        .filter(
            c ->
                c == 0x9
                    || c == 0xA
                    || c == 0xD
                    || (c >= 0x20 && c <= 0xD7FF)
                    || (c >= 0xE000 && c <= 0xFFFD)
                    || c >= 0x10000)
        .forEach(clean::appendCodePoint);
    return clean.toString();
  }
}
