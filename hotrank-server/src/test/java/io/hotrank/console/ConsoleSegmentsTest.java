package io.hotrank.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * A segmented board in the console: the family's page lists its segments (searchable) and links
 * each one's page, which shows the segment board's items and applies a control to that segment
 * only.
 */
@TestPropertySource(
    properties = {
      "hotrank.boards[0].name=con-tag",
      "hotrank.boards[0].biz=con",
      "hotrank.boards[0].size=5",
      "hotrank.boards[0].refresh=0 0 0 1 1 *",
      "hotrank.boards[0].segment-by=tag"
    })
class ConsoleSegmentsTest extends ConsoleTestSupport {

  private void item(long id, List<String> tags, int likes) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("biz", "con");
    body.put("id", id);
    body.put("authorId", 1);
    body.put("title", "con " + id);
    body.put("tags", tags);
    body.put("createdAt", NOW.minusSeconds(100 + id).toString());
    assertThat(http.post("/api/v1/items", HttpJson.json(body)).status()).isEqualTo(201);
    List<String> events = new ArrayList<>();
    for (int i = 0; i < likes; i++) {
      events.add("{\"biz\":\"con\",\"itemId\":" + id + ",\"type\":\"like\"}");
    }
    if (!events.isEmpty()) {
      postEvents(events.toArray(String[]::new));
    }
  }

  private List<Long> segmentIds(String segment) {
    List<Long> ids = new ArrayList<>();
    http.get("/api/v1/boards/con-tag/segments/" + segment + "?limit=5")
        .json()
        .get("items")
        .forEach(e -> ids.add(e.get("itemId").asLong()));
    return ids;
  }

  @Test
  void theFamilyListsItsSegments_andASegmentPageControlsThatSegmentOnly() {
    item(1, List.of("java", "machine learning"), 3);
    item(2, List.of("java"), 2);
    item(3, List.of("go"), 1);
    assertThat(http.admin("/api/v1/admin/boards/con-tag/recompute").status()).isEqualTo(200);
    String cookie = signIn(ADMIN_TOKEN);

    HttpResponse<String> family = get("/console/boards/con-tag", "Cookie", cookie);
    assertThat(family.statusCode()).isEqualTo(200);
    assertThat(family.body())
        .contains("id=\"segment-list\"")
        .contains("data-segment=\"java\"")
        .contains("data-segment=\"go\"")
        .contains("href=\"/console/boards/con-tag/segments/machine%20learning\"")
        .doesNotContain("id=\"live-items\"");
    HttpResponse<String> searched = get("/console/boards/con-tag?q=ja", "Cookie", cookie);
    assertThat(searched.body())
        .contains("data-segment=\"java\"")
        .doesNotContain("data-segment=\"go\"");

    HttpResponse<String> spaced =
        get("/console/boards/con-tag/segments/machine%20learning", "Cookie", cookie);
    assertThat(spaced.statusCode()).isEqualTo(200);
    assertThat(spaced.body())
        .contains("id=\"segment-name\">machine learning<")
        .contains("data-item=\"1\"");

    HttpResponse<String> java = get("/console/boards/con-tag/segments/java", "Cookie", cookie);
    assertThat(java.statusCode()).isEqualTo(200);
    assertThat(java.body())
        .contains("data-item=\"1\"")
        .contains("data-item=\"2\"")
        .contains("action=\"/console/boards/con-tag/segments/java/controls\"");
    String version = java.body().replaceAll("(?s).*id=\"live-version\">([0-9]+)<.*", "$1");
    assertThat(
            get("/console/boards/con-tag/segments/java/items?seen=" + version, "Cookie", cookie)
                .statusCode())
        .isEqualTo(204);

    HttpResponse<String> blocked =
        postForm(
            "/console/boards/con-tag/segments/java/controls",
            cookie,
            List.of(
                "_csrf=" + csrfOf(java.body()),
                "itemId=1",
                "action=block",
                "reason=off topic here"));
    assertThat(blocked.statusCode()).as(blocked.body()).isEqualTo(302);
    assertThat(blocked.headers().firstValue("Location").orElseThrow())
        .endsWith("/console/boards/con-tag/segments/java");
    assertThat(segmentIds("java")).containsExactly(2L);
    assertThat(segmentIds("machine%20learning")).containsExactly(1L);
    HttpResponse<String> after = get("/console/boards/con-tag/segments/java", "Cookie", cookie);
    assertThat(after.body()).contains("id=\"controls\"").contains("off topic here");
  }
}
