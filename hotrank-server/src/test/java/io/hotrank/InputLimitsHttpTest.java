package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson.Answer;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The bounds of item ids and event times that do not depend on the database engine, run once, on H2
 * (the engine-dependent half, generated ids at the cap, is in {@link HotrankApiContract}): every
 * item id that enters, in a path, a batch read or an event, is 1 to 2^53 - 1; an event's {@code at}
 * is an RFC 3339 string from the epoch to five minutes ahead. A value outside is a 400 naming the
 * field, never a 500, and changes nothing. Shares {@link H2ApiTest}'s Spring context.
 */
@TestPropertySource(properties = "hotrank.data-dir=target/test-data/h2")
@Tag("cluster")
class InputLimitsHttpTest extends ApiTestSupport {

  private static final long MAX_ID = 9007199254740991L;

  @Override
  protected String engine() {
    return "H2";
  }

  @Test
  void itemIdsAboveTheCap_inPathsAndBatchReads_are400sNamingTheId() {
    createItem("news", 1L, "kept", 1, NOW.minusSeconds(60));
    String body = "{\"authorId\":2,\"title\":\"changed\"}";
    for (long id : new long[] {MAX_ID + 1, Long.MAX_VALUE}) {
      assertCapProblem(http.get("/api/v1/items/news/" + id), "id");
      assertCapProblem(http.put("/api/v1/items/news/" + id, body), "id");
      assertCapProblem(http.delete("/api/v1/items/news/" + id), "id");
      assertFieldProblem(http.get("/api/v1/items/news?ids=1," + id), "ids");
    }
    // At the cap, the id is valid and simply unknown.
    assertThat(http.get("/api/v1/items/news/" + MAX_ID).status()).isEqualTo(404);
    assertThat(http.get("/api/v1/items/news/1").json().get("title").asString()).isEqualTo("kept");
  }

  @Test
  void eventItemIdsAboveTheCap_are400sNamingTheEvent() {
    createItem("news", 1L, "kept", 1, NOW.minusSeconds(60));
    for (long id : new long[] {MAX_ID + 1, Long.MAX_VALUE}) {
      Answer answer =
          http.post(
              "/api/v1/events",
              "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"},"
                  + "{\"biz\":\"news\",\"itemId\":"
                  + id
                  + ",\"type\":\"like\"}]}");
      assertCapProblem(answer, "events[1].itemId");
    }
    fold();
    assertThat(likes(1)).isZero();
  }

  @Test
  void eventTimes_outsideTheRangeOrNotRfc3339Strings_are400sNamingTheField_andChangeNothing() {
    createItem("news", 1L, "kept", 1, NOW.minusSeconds(60));
    List<String> refused =
        List.of(
            "\"-1000000000-01-01T00:00:00Z\"", // Instant.MIN: toEpochMilli overflowed (500)
            "\"-0001-01-01T00:00:00Z\"",
            "\"1969-12-31T23:59:59.999Z\"",
            "\"+1000000000-01-01T00:00:00Z\"",
            "\"+1000000001-01-01T00:00:00Z\"", // beyond Instant.MAX
            "\"+999999999-12-31T23:59:59Z\"",
            "0", // Jackson read a number as epoch seconds: 1970
            "1780315200000",
            "1e300",
            "-1",
            "\"0\"",
            "\"1780315200\"",
            "\"x\"",
            "\"2026-06-01 12:00:00\"",
            "true",
            "{}",
            "[]");
    for (String at : refused) {
      Answer answer =
          http.post(
              "/api/v1/events",
              "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\"},"
                  + "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"at\":"
                  + at
                  + "}]}");
      assertFieldProblem(answer, "events[1].at");
    }
    Answer number =
        http.post(
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"at\":0}]}");
    assertThat(number.body())
        .contains("must be an RFC 3339 timestamp such as 2026-12-01T10:00:00Z");
    Answer early =
        http.post(
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\","
                + "\"at\":\"1969-12-31T23:59:59Z\"}]}");
    assertThat(early.body()).contains("must not be before 1970-01-01T00:00:00Z");
    fold();
    assertThat(likes(1)).isZero();
  }

  @Test
  void eventTimes_fromTheEpochToFiveMinutesAhead_withZOrAnOffset_areAccepted() {
    createItem("news", 1L, "kept", 1, NOW.minusSeconds(60));
    postEvents(
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"at\":\"1970-01-01T00:00:00Z\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"at\":\"2026-06-01T14:00:00+02:00\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"at\":\"2026-06-01T12:05:00.000Z\"}",
        "{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"at\":null}");
    assertThat(likes(1)).isEqualTo(4);
    assertFieldProblem(
        http.post(
            "/api/v1/events",
            "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\","
                + "\"at\":\"2026-06-01T12:05:00.001Z\"}]}"),
        "events[0].at");
  }

  @Test
  void itemCreationTimes_thatAreNotRfc3339Strings_are400sNamingTheField_andCreateNothing() {
    for (String createdAt : List.of("0", "1780315200000", "\"0\"", "\"x\"")) {
      Answer answer =
          http.post(
              "/api/v1/items",
              "{\"biz\":\"news\",\"id\":5,\"authorId\":1,\"title\":\"t\",\"tags\":[],"
                  + "\"createdAt\":"
                  + createdAt
                  + "}");
      assertFieldProblem(answer, "createdAt");
    }
    assertThat(http.get("/api/v1/items/news/5").status()).isEqualTo(404);
  }

  private long likes(long id) {
    JsonNode item = http.get("/api/v1/items/news/" + id).json();
    return item.get("counts").get("like").asLong();
  }

  private static void assertCapProblem(Answer answer, String field) {
    assertFieldProblem(answer, field);
    assertThat(answer.body()).contains("must be at most " + MAX_ID);
  }

  private static void assertFieldProblem(Answer answer, String field) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertThat(answer.json().get("errors").findValuesAsString("field"))
        .as(answer.body())
        .contains(field);
  }
}
