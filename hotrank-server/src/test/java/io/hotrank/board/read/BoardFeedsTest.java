package io.hotrank.board.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson.Answer;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import tools.jackson.databind.JsonNode;

/**
 * A board's feeds: the Atom document holds what RFC 4287 requires of a feed and of each entry, the
 * JSON Feed what version 1.1 requires, both the board's entries in order with ids that name the
 * item and stay the same across versions, links built from the board's {@code item-url}, and the
 * board read's caching (ETag, 304). Shares {@code H2ApiTest}'s Spring context.
 */
@TestPropertySource(properties = "hotrank.data-dir=target/test-data/h2")
class BoardFeedsTest extends ApiTestSupport {

  private static final String ATOM_NS = "http://www.w3.org/2005/Atom";

  @Override
  protected String engine() {
    return "H2";
  }

  private void items() {
    createItem("news", 1L, "Ranked <first> & \"quoted\"", 1, NOW.minusSeconds(600));
    createItem("news", 2L, "Second", 2, NOW.minusSeconds(1200));
    createItem("news", 3L, "Third", 3, NOW.minusSeconds(1800));
    postEvents(
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"share\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"}",
        "{\"biz\":\"news\",\"itemId\":2,\"type\":\"like\"}",
        "{\"biz\":\"news\",\"itemId\":2,\"type\":\"comment\"}");
    recompute("news-hn");
    recompute("news-reddit");
  }

  private void recompute(String board) {
    Answer answer = http.admin("/api/v1/admin/boards/" + board + "/recompute");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
  }

  private static Document xml(Answer answer) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(answer.raw()));
  }

  /** The Atom children of {@code parent} named {@code name}. */
  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node node = nodes.item(i);
      if (node instanceof Element e
          && ATOM_NS.equals(e.getNamespaceURI())
          && name.equals(e.getLocalName())) {
        found.add(e);
      }
    }
    return found;
  }

  private static String only(Element parent, String name) {
    List<Element> found = children(parent, name);
    assertThat(found).as("atom:%s of atom:%s", name, parent.getLocalName()).hasSize(1);
    return found.getFirst().getTextContent();
  }

  @Test
  void atom_holdsWhatRfc4287Requires_andTheBoardsEntriesInOrder() throws Exception {
    items();
    List<Long> ids = boardIds("news-hn");
    assertThat(ids).containsExactly(1L, 2L, 3L);

    Answer answer = http.get("/api/v1/boards/news-hn/feed.atom?limit=8");

    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.header("Content-Type")).startsWith("application/atom+xml");
    Element feed = xml(answer).getDocumentElement();
    assertThat(feed.getNamespaceURI()).isEqualTo(ATOM_NS);
    assertThat(feed.getLocalName()).isEqualTo("feed");
    // RFC 4287 4.1.1: exactly one id, title and updated; an author (here the feed's).
    assertThat(only(feed, "id")).isEqualTo("urn:hotrank:board:news-hn");
    assertThat(only(feed, "title")).contains("news-hn");
    String computedAt = http.get("/api/v1/boards/news-hn").json().get("computedAt").asString();
    assertThat(Instant.parse(only(feed, "updated"))).isEqualTo(Instant.parse(computedAt));
    assertThat(children(feed, "author")).hasSize(1);
    assertThat(only(children(feed, "author").getFirst(), "name")).isEqualTo("hotrank");
    assertThat(
            children(feed, "link").stream()
                .filter(l -> l.getAttribute("rel").equals("self"))
                .map(l -> l.getAttribute("href")))
        .singleElement()
        .asString()
        .endsWith("/api/v1/boards/news-hn/feed.atom?limit=8");

    List<Element> entries = children(feed, "entry");
    assertThat(entries).hasSize(3);
    for (int i = 0; i < entries.size(); i++) {
      Element entry = entries.get(i);
      long id = ids.get(i);
      // RFC 4287 4.1.2: exactly one id, title and updated; a link or content (both here).
      assertThat(only(entry, "id")).isEqualTo("urn:hotrank:item:news:" + id);
      OffsetDateTime.parse(only(entry, "updated")); // an RFC 3339 date-time
      assertThat(
              children(entry, "link").stream()
                  .filter(l -> l.getAttribute("rel").equals("alternate"))
                  .map(l -> l.getAttribute("href")))
          .containsExactly("https://news.example.org/news/a/" + id);
      Element content = children(entry, "content").getFirst();
      assertThat(content.getAttribute("type")).isEqualTo("text");
      assertThat(content.getTextContent()).startsWith("Rank " + (i + 1) + ", score ");
    }
    // Markup in a title is text.
    assertThat(only(entries.getFirst(), "title")).isEqualTo("Ranked <first> & \"quoted\"");
    assertThat(only(entries.get(1), "title")).isEqualTo("Second");

    // A board that names no item-url: entries carry their text, and no link.
    Element reddit =
        xml(http.get("/api/v1/boards/news-reddit/feed.atom?limit=8")).getDocumentElement();
    for (Element entry : children(reddit, "entry")) {
      assertThat(children(entry, "link")).isEmpty();
      assertThat(children(entry, "content")).hasSize(1);
    }
  }

  @Test
  void jsonFeed_holdsWhatVersion11Requires_andTheBoardsEntriesInOrder() {
    items();
    List<Long> ids = boardIds("news-hn");

    Answer answer = http.get("/api/v1/boards/news-hn/feed.json?limit=2");

    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.header("Content-Type")).startsWith("application/feed+json");
    JsonNode feed = answer.json();
    assertThat(feed.get("version").asString()).isEqualTo("https://jsonfeed.org/version/1.1");
    assertThat(feed.get("title").asString()).contains("news-hn");
    assertThat(feed.get("feed_url").asString())
        .endsWith("/api/v1/boards/news-hn/feed.json?limit=2");
    assertThat(feed.get("items")).hasSize(2);
    for (int i = 0; i < 2; i++) {
      JsonNode item = feed.get("items").get(i);
      long id = ids.get(i);
      // JSON Feed 1.1: each item has a string id and content_html or content_text.
      assertThat(item.get("id").isString()).isTrue();
      assertThat(item.get("id").asString()).isEqualTo("urn:hotrank:item:news:" + id);
      assertThat(item.get("content_text").asString()).startsWith("Rank " + (i + 1) + ", score ");
      assertThat(item.get("url").asString()).isEqualTo("https://news.example.org/news/a/" + id);
      OffsetDateTime.parse(item.get("date_published").asString());
      assertThat(item.get("_hotrank").get("rank").asInt()).isEqualTo(i + 1);
    }
    assertThat(feed.get("items").get(0).get("title").asString())
        .isEqualTo("Ranked <first> & \"quoted\"");
    assertThat(
            http.get("/api/v1/boards/news-reddit/feed.json").json().get("items").get(0).has("url"))
        .isFalse();
  }

  @Test
  void feeds_revalidateByVersion_andKeepTheirEntryIdsAcrossVersions() throws Exception {
    items();
    Answer first = http.get("/api/v1/boards/news-hn/feed.atom?limit=8");
    String etag = first.header("ETag");
    assertThat(etag).isNotBlank();
    assertThat(first.header("Cache-Control")).contains("max-age");
    assertThat(http.get("/api/v1/boards/news-hn/feed.atom?limit=8", "If-None-Match", etag).status())
        .isEqualTo(304);
    String jsonTag = http.get("/api/v1/boards/news-hn/feed.json").header("ETag");
    assertThat(jsonTag).isNotEqualTo(etag);
    assertThat(http.get("/api/v1/boards/news-hn/feed.json", "If-None-Match", jsonTag).status())
        .isEqualTo(304);

    // Item 3 overtakes both: a new version, a new tag, the same ids for the same items.
    postEvents(
        "{\"biz\":\"news\",\"itemId\":3,\"type\":\"share\"}",
        "{\"biz\":\"news\",\"itemId\":3,\"type\":\"share\"}",
        "{\"biz\":\"news\",\"itemId\":3,\"type\":\"share\"}");
    recompute("news-hn");
    Answer second = http.get("/api/v1/boards/news-hn/feed.atom?limit=8", "If-None-Match", etag);
    assertThat(second.status()).isEqualTo(200);
    assertThat(second.header("ETag")).isNotEqualTo(etag);
    List<String> before = new ArrayList<>();
    children(xml(first).getDocumentElement(), "entry").forEach(e -> before.add(only(e, "id")));
    List<String> after = new ArrayList<>();
    children(xml(second).getDocumentElement(), "entry").forEach(e -> after.add(only(e, "id")));
    assertThat(after.getFirst()).isEqualTo("urn:hotrank:item:news:3");
    assertThat(after).containsExactlyInAnyOrderElementsOf(before);
  }

  @Test
  void aSegmentBoard_hasFeedsOfItsOwn_andTheFamilyHasNone() throws Exception {
    Answer segment = http.get("/api/v1/boards/review-by-tag/segments/t1/feed.atom");
    assertThat(segment.status()).as(segment.body()).isEqualTo(200);
    assertThat(only(xml(segment).getDocumentElement(), "id"))
        .isEqualTo("urn:hotrank:board:review-by-tag:t1");
    Answer family = http.get("/api/v1/boards/review-by-tag/feed.json");
    assertThat(family.status()).isEqualTo(400);
    assertThat(family.body()).contains("segment-required");
  }

  @Test
  void badFeedReads_areProblemsNamingWhatIsWrong() {
    Answer format = http.get("/api/v1/boards/news-hn/feed.rss");
    assertThat(format.status()).isEqualTo(404);
    assertThat(format.header("Content-Type")).startsWith("application/problem+json");
    Answer limit = http.get("/api/v1/boards/news-hn/feed.atom?limit=0");
    assertThat(limit.status()).isEqualTo(400);
    assertThat(limit.body()).contains("limit");
    Answer unknown = http.get("/api/v1/boards/no-such-board/feed.json");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.header("Content-Type")).startsWith("application/problem+json");
  }
}
