package io.hotrank.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hotrank.board.compute.BoardJobs;
import io.hotrank.web.Operators;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The console over plain HTTP: sign-in and its cookie, the session and CSRF guards, role refusals,
 * and the console's own rate limit policy, which keeps an open console from spending the operator's
 * admin quota.
 */
class ConsoleHttpTest extends ConsoleTestSupport {

  @Autowired Operators operators;

  @Test
  void signIn_withWrongToken_is401WithTheForm_andSetsNoCookie() {
    HttpResponse<String> answer = postForm("/console/sign-in", "", List.of("token=not-a-token"));
    assertThat(answer.statusCode()).isEqualTo(401);
    assertThat(answer.body()).contains("id=\"sign-in-error\"");
    assertThat(answer.headers().allValues("Set-Cookie")).isEmpty();
  }

  @Test
  void signIn_withAdminToken_setsAnHttpOnlyStrictCookieScopedToTheConsole() {
    HttpResponse<String> answer = postForm("/console/sign-in", "", List.of("token=" + ADMIN_TOKEN));
    assertThat(answer.statusCode()).isEqualTo(302);
    assertThat(answer.headers().firstValue("Location").orElseThrow()).endsWith("/console/boards");
    String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie)
        .startsWith(ConsoleSessions.COOKIE + "=")
        .contains("Path=/console")
        .contains("HttpOnly")
        .contains("SameSite=Strict")
        .contains("Max-Age=28800")
        .doesNotContain("Secure")
        .doesNotContain(ADMIN_TOKEN);
  }

  @Test
  void signIn_forwardedAsHttps_marksTheCookieSecure() {
    var request =
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(base() + "/console/sign-in"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("X-Forwarded-Proto", "https")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("token=" + ADMIN_TOKEN));
    assertThat(send(request).headers().firstValue("Set-Cookie").orElseThrow()).contains("Secure");
  }

  @Test
  void pages_withoutASession_sendToSignIn_andAPolledFragmentIsToldSo() {
    HttpResponse<String> page = get("/console/boards");
    assertThat(page.statusCode()).isEqualTo(302);
    assertThat(page.headers().firstValue("Location").orElseThrow()).endsWith("/console/sign-in");

    HttpResponse<String> fragment = get("/console/boards/news-decay/items", "HX-Request", "true");
    assertThat(fragment.statusCode()).isEqualTo(401);
    assertThat(fragment.headers().firstValue("HX-Redirect")).hasValue("/console/sign-in");

    // Any other text of the signature is refused: its first character, and its last character
    // spelled with other spare bits (a base64 decoder ignores those, so only a comparison of the
    // text itself refuses them). Four requests: the console's rate limit is on in this test.
    String cookie = signIn(ADMIN_TOKEN);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    int first = cookie.lastIndexOf('.') + 1;
    int last = cookie.length() - 1;
    List<String> tampered = new ArrayList<>();
    tampered.add(
        cookie.substring(0, first)
            + (cookie.charAt(first) == 'A' ? 'B' : 'A')
            + cookie.substring(first + 1));
    int index = alphabet.indexOf(cookie.charAt(last));
    for (int spare = 1; spare <= 3; spare++) {
      tampered.add(cookie.substring(0, last) + alphabet.charAt(index ^ spare));
    }
    for (String altered : tampered) {
      assertThat(get("/console/boards", "Cookie", altered).statusCode())
          .as("cookie %s", altered)
          .isEqualTo(302);
    }
  }

  @Test
  void everyPage_rendersForAnAdmin() {
    String cookie = signIn(ADMIN_TOKEN);
    for (String page :
        List.of(
            "/console/boards",
            "/console/boards/news-decay",
            "/console/boards/news-decay/items",
            "/console/jobs",
            "/console/tasks",
            "/console/hotkeys",
            "/console/limits",
            "/console/ingest",
            "/console/audit",
            "/console/audit?target=board:news-decay/*",
            "/console/actors",
            "/console/actors?userId=5")) {
      HttpResponse<String> answer = get(page, "Cookie", cookie);
      assertThat(answer.statusCode()).as(page).isEqualTo(200);
      assertThat(answer.headers().firstValue("Cache-Control")).as(page).hasValue("no-store");
    }
    assertThat(get("/console/boards/no-such-board", "Cookie", cookie).body())
        .contains("id=\"problem\"")
        .contains("no-such-board");
  }

  /** Recomputes without the admin API, whose rate limit another test here measures. */
  @Autowired BoardJobs boardJobs;

  @Test
  void theLiveFragment_isNoContentUntilTheBoardHasAnotherVersion() {
    createItem("news", 1L, "Story 1", 1, NOW.minusSeconds(600));
    boardJobs.recompute("news-decay");
    String cookie = signIn(ADMIN_TOKEN);
    String page = get("/console/boards/news-decay", "Cookie", cookie).body();
    long shown = version(page);
    String poll = "/console/boards/news-decay/items?seen=";
    HttpResponse<String> same = get(poll + shown, "Cookie", cookie, "HX-Request", "true");
    assertThat(same.statusCode()).isEqualTo(204);
    assertThat(same.body()).isEmpty();
    boardJobs.recompute("news-decay");
    HttpResponse<String> changed = get(poll + shown, "Cookie", cookie, "HX-Request", "true");
    assertThat(changed.statusCode()).isEqualTo(200);
    assertThat(version(changed.body())).isGreaterThan(shown);
    // The new fragment polls with its own version.
    assertThat(changed.body()).contains("seen=" + version(changed.body()));
  }

  private static long version(String html) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("id=\"live-version\">(\\d+)<").matcher(html);
    assertThat(m.find()).as(html).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Test
  void post_withoutTheSessionsCsrfToken_is403Problem_andChangesNothing() {
    String cookie = signIn(ADMIN_TOKEN);
    String otherSessionsToken =
        csrfOf(get("/console/boards", "Cookie", signIn(ADMIN_TOKEN)).body());
    int before = auditCount();
    for (List<String> fields :
        List.of(
            List.of("itemId=1", "action=block", "reason=no token"),
            List.of("itemId=1", "action=block", "reason=stolen", "_csrf=" + otherSessionsToken))) {
      HttpResponse<String> answer = postForm("/console/boards/news-decay/controls", cookie, fields);
      assertThat(answer.statusCode()).isEqualTo(403);
      assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
      assertThat(answer.body()).contains("csrf-refused");
    }
    assertThat(auditCount()).isEqualTo(before);
  }

  @Test
  void anOperator_flagsAnActorOnItsPage_andClearsTheFlag_bothAudited_aViewerNeither() {
    long userId = 900_000_000L + System.nanoTime() % 100_000_000L;
    String page = "/console/actors?userId=" + userId;
    String cookie = signIn(ADMIN_TOKEN);
    String unknown = get(page, "Cookie", cookie).body();
    assertThat(unknown).contains("id=\"actor-unknown\"").contains("id=\"flag-form\"");

    HttpResponse<String> empty =
        postForm(
            "/console/actors/" + userId + "/flag",
            cookie,
            List.of("reason=", "_csrf=" + csrfOf(unknown)));
    assertThat(empty.statusCode()).isEqualTo(400);
    assertThat(empty.body())
        .contains("id=\"problem\"")
        .contains("reason: is required, 1 to 500 characters");

    HttpResponse<String> flagged =
        postForm(
            "/console/actors/" + userId + "/flag",
            cookie,
            List.of("reason=like ring", "_csrf=" + csrfOf(unknown)));
    assertThat(flagged.statusCode()).isEqualTo(302);
    assertThat(flagged.headers().firstValue("Location").orElseThrow()).endsWith(page);
    String shown = get(page, "Cookie", cookie).body();
    assertThat(shown).contains("like ring (by admin,").contains("id=\"unflag-form\"");
    assertThat(get("/console/actors", "Cookie", cookie).body())
        .contains("data-user=\"" + userId + "\"");

    String viewer = signIn(VIEWER_TOKEN);
    String viewed = get(page, "Cookie", viewer).body();
    assertThat(viewed).contains("like ring").doesNotContain("id=\"unflag-form\"");
    HttpResponse<String> refused =
        postForm(
            "/console/actors/" + userId + "/unflag", viewer, List.of("_csrf=" + csrfOf(viewed)));
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("needs the role");

    HttpResponse<String> cleared =
        postForm(
            "/console/actors/" + userId + "/unflag",
            cookie,
            List.of("reason=appeal upheld", "_csrf=" + csrfOf(shown)));
    assertThat(cleared.statusCode()).isEqualTo(302);
    assertThat(get(page, "Cookie", cookie).body()).contains("not flagged");
    assertThat(
            jdbc.queryForList(
                "SELECT action FROM hr_audit WHERE target = ? ORDER BY id",
                String.class,
                "actor:" + userId))
        .containsExactly("actor.flag", "actor.unflag");
  }

  @Test
  void signOut_clearsTheCookie() {
    String cookie = signIn(ADMIN_TOKEN);
    String csrf = csrfOf(get("/console/boards", "Cookie", cookie).body());
    HttpResponse<String> answer = postForm("/console/sign-out", cookie, List.of("_csrf=" + csrf));
    assertThat(answer.statusCode()).isEqualTo(302);
    assertThat(answer.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0");
  }

  @Test
  void viewer_seesPagesWithoutActions_andIsRefusedAnAction() {
    assertThat(operators.authenticate(VIEWER_TOKEN)).as("the viewer's key").isPresent();
    String cookie = signIn(VIEWER_TOKEN);
    String board = get("/console/boards/news-decay", "Cookie", cookie).body();
    assertThat(board).doesNotContain("id=\"control-form\"").doesNotContain("class=\"act\"");
    assertThat(get("/console/tasks", "Cookie", cookie).body())
        .doesNotContain("class=\"secondary pause\"");
    HttpResponse<String> refused =
        postForm(
            "/console/boards/news-decay/controls",
            cookie,
            List.of("itemId=1", "action=block", "reason=viewer", "_csrf=" + csrfOf(board)));
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("id=\"problem\"").contains("needs the role");
  }

  /**
   * An operator keeps a board page open (one fragment poll a second) and spends the whole admin
   * quota every second besides: every admin call still answers 200, because the console's requests
   * count under their own policy. Were they counted as admin calls, the tenth admin call of each
   * second would be refused.
   */
  @Test
  void anOpenConsole_leavesTheOperatorsWholeAdminQuota_underTheDefaultLimits() {
    String cookie = signIn(ADMIN_TOKEN);
    List<Integer> adminStatuses = new ArrayList<>();
    List<Integer> consoleStatuses = new ArrayList<>();
    AtomicInteger seconds = new AtomicInteger();
    await()
        .atMost(Duration.ofSeconds(30))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(1200))
        .until(
            () -> {
              HttpResponse<String> poll =
                  get("/console/boards/news-decay/items", "Cookie", cookie, "HX-Request", "true");
              consoleStatuses.add(poll.statusCode());
              assertThat(poll.headers().firstValue("RateLimit-Policy").orElseThrow())
                  .startsWith("\"console\"");
              for (int i = 0; i < 10; i++) {
                adminStatuses.add(http.get("/api/v1/admin/jobs", http.adminHeader()).status());
              }
              return seconds.incrementAndGet() == 6;
            });
    assertThat(consoleStatuses).hasSize(6).containsOnly(200);
    assertThat(adminStatuses).hasSize(60).containsOnly(200);
  }

  private int auditCount() {
    Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM hr_audit", Integer.class);
    return n == null ? 0 : n;
  }
}
