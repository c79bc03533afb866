package io.hotrank.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * What the event batches a test had accepted promise: per item, the likes and the views. Batches
 * are random likes (a third) and views over items {@code 1..items}. Thread-safe.
 */
public final class EventModel {

  private final Map<Long, long[]> counts = new ConcurrentHashMap<>();

  /** A batch of {@code size} random likes and views of biz's items {@code 1..items}. */
  public static List<Map<String, Object>> randomBatch(
      String biz, int items, Random random, int size) {
    List<Map<String, Object>> events = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("biz", biz);
      e.put("itemId", 1L + random.nextInt(items));
      e.put("type", random.nextInt(3) == 0 ? "like" : "view");
      events.add(e);
    }
    return events;
  }

  /** Counts a batch. */
  public synchronized void add(List<Map<String, Object>> batch) {
    for (Map<String, Object> e : batch) {
      long[] c = counts.computeIfAbsent(((Number) e.get("itemId")).longValue(), id -> new long[2]);
      c[e.get("type").equals("like") ? 0 : 1]++;
    }
  }

  /** An item's likes and views. */
  public synchronized long[] of(long id) {
    return counts.getOrDefault(id, new long[2]).clone();
  }

  /** Every item counted, with its likes and views. */
  public synchronized Map<Long, long[]> counts() {
    Map<Long, long[]> copy = new LinkedHashMap<>();
    counts.forEach((id, c) -> copy.put(id, c.clone()));
    return copy;
  }

  /** An item's likes and views as the API reads them. */
  public static long[] read(HttpJson http, String biz, long id) {
    JsonNode counts = http.get("/api/v1/items/" + biz + "/" + id).json().get("counts");
    return new long[] {counts.get("like").asLong(), counts.get("view").asLong()};
  }

  /** Each of biz's items {@code 1..items} has exactly the likes and views counted here. */
  public void assertCounters(HttpJson http, String biz, int items) {
    for (long id = 1; id <= items; id++) {
      assertThat(read(http, biz, id)).as("item %d likes and views", id).containsExactly(of(id));
    }
  }
}
