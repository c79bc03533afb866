package io.hotrank.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson.Answer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** Reads of a board's page over HTTP, as tests compare them. */
public final class BoardReads {

  private BoardReads() {}

  /** The item ids of a board page's {@code items}, in order. */
  public static List<Long> ids(JsonNode page) {
    List<Long> ids = new ArrayList<>();
    page.get("items").forEach(e -> ids.add(e.get("itemId").asLong()));
    return ids;
  }

  /**
   * The first {@code limit} entries of {@code board}, by item id: their scores. Must answer 200.
   */
  public static Map<Long, Double> scores(HttpJson http, String board, int limit) {
    Answer answer = http.get("/api/v1/boards/" + board + "?limit=" + limit);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    Map<Long, Double> scores = new HashMap<>();
    answer
        .json()
        .get("items")
        .forEach(e -> scores.put(e.get("itemId").asLong(), e.get("score").asDouble()));
    return scores;
  }
}
