package io.hotrank.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.RawHttp;
import io.hotrank.support.TestData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Each role against each admin mapping, the role each needs taken from an explicit table written
 * from issue 24 (item 3), not from the code under test: a viewer makes every admin {@code GET} (and
 * its {@code HEAD}) and nothing else; an operator also the board controls, task pause, resume and
 * trigger, recompute, rebuild, fold and feed fan-out; only an admin creates, changes or deletes
 * tasks and creates bizes. No token and a wrong token are 401 for every row; a role short of a row
 * is 403 {@code forbidden}; a role that suffices is neither. A row whose mapping this build does
 * not have (yet) is skipped, but an admin mapping missing from the table fails, so that a new
 * endpoint cannot go untested or take its role from its own annotation.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "admin-roles",
      "hotrank.admin.operators[0].name=vera",
      "hotrank.admin.operators[0].token=viewer-token-123",
      "hotrank.admin.operators[0].role=viewer",
      "hotrank.admin.operators[1].name=otto",
      // SHA-256 of "operator-token-456": the configuration holds no token.
      "hotrank.admin.operators[1].token-sha256=" + AdminRolesTest.OPERATOR_SHA256,
      "hotrank.admin.operators[1].role=OPERATOR",
    })
class AdminRolesTest {

  static final String OPERATOR_SHA256 =
      "9b8fbc9d44e83ae16839407eeaf1291aa85a6fbd479c87dd8f7e83ebabf53263";

  static {
    TestData.empty("admin-roles");
  }

  private static final String VIEWER = "viewer-token-123";
  private static final String OPERATOR = "operator-token-456";
  private static final String ADMIN = "test-admin-token";

  private static final Map<Role, String> TOKENS =
      Map.of(Role.VIEWER, VIEWER, Role.OPERATOR, OPERATOR, Role.ADMIN, ADMIN);

  private static final Map<Role, String> NAMES =
      Map.of(Role.VIEWER, "vera", Role.OPERATOR, "otto", Role.ADMIN, "admin");

  /** One row of the table: a method, a path pattern as the controller maps it, the least role. */
  record Row(String method, String pattern, Role role) {

    /** The method and the pattern with its variables unnamed, as mappings are compared. */
    String key() {
      return key(method, pattern);
    }

    static String key(String method, String pattern) {
      return method + " " + pattern.replaceAll("\\{[^}]+}", "{}");
    }

    /** A concrete path: ids numeric, names that no board, task or biz has. */
    String path() {
      return pattern.replaceAll("\\{[^}]*Id}", "1").replaceAll("\\{[^}]+}", "no-such-x");
    }

    Row head() {
      return new Row("HEAD", pattern, role);
    }
  }

  /** Issue 24, item 3. Keep it written by hand: it is the specification the code is held to. */
  static final List<Row> TABLE =
      List.of(
          new Row("GET", "/api/v1/admin/jobs", Role.VIEWER),
          new Row("GET", "/api/v1/admin/hotkeys", Role.VIEWER),
          new Row("GET", "/api/v1/admin/audit", Role.VIEWER),
          new Row("GET", "/api/v1/admin/bizes", Role.VIEWER),
          new Row("GET", "/api/v1/admin/tasks", Role.VIEWER),
          new Row("GET", "/api/v1/admin/tasks/{name}", Role.VIEWER),
          new Row("GET", "/api/v1/admin/tasks/{name}/runs", Role.VIEWER),
          new Row("GET", "/api/v1/admin/boards/{name}/controls", Role.VIEWER),
          new Row("PUT", "/api/v1/admin/boards/{name}/controls/{itemId}", Role.OPERATOR),
          new Row("DELETE", "/api/v1/admin/boards/{name}/controls/{itemId}", Role.OPERATOR),
          new Row("GET", "/api/v1/admin/boards/{name}/segments/{segment}/controls", Role.VIEWER),
          new Row(
              "PUT",
              "/api/v1/admin/boards/{name}/segments/{segment}/controls/{itemId}",
              Role.OPERATOR),
          new Row(
              "DELETE",
              "/api/v1/admin/boards/{name}/segments/{segment}/controls/{itemId}",
              Role.OPERATOR),
          new Row("POST", "/api/v1/admin/tasks/{name}/pause", Role.OPERATOR),
          new Row("POST", "/api/v1/admin/tasks/{name}/resume", Role.OPERATOR),
          new Row("POST", "/api/v1/admin/tasks/{name}/trigger", Role.OPERATOR),
          new Row("POST", "/api/v1/admin/boards/{name}/recompute", Role.OPERATOR),
          new Row("POST", "/api/v1/admin/boards/{name}/rebuild", Role.OPERATOR),
          new Row("POST", "/api/v1/admin/events/fold", Role.OPERATOR),
          new Row("GET", "/api/v1/admin/ingest", Role.VIEWER),
          new Row("POST", "/api/v1/admin/feeds/fanout", Role.OPERATOR),
          // Issue 42: flagging an actor is moderation, as board controls are.
          new Row("GET", "/api/v1/admin/actors/{userId}", Role.VIEWER),
          new Row("PUT", "/api/v1/admin/actors/{userId}/flag", Role.OPERATOR),
          new Row("DELETE", "/api/v1/admin/actors/{userId}/flag", Role.OPERATOR),
          new Row("GET", "/api/v1/admin/review", Role.VIEWER),
          new Row("PUT", "/api/v1/admin/review/{biz}/{itemId}", Role.OPERATOR),
          new Row("PUT", "/api/v1/admin/review/authors/{authorId}", Role.OPERATOR),
          new Row("GET", "/api/v1/admin/boards/{name}/candidates", Role.VIEWER),
          new Row("POST", "/api/v1/admin/tasks", Role.ADMIN),
          new Row("PUT", "/api/v1/admin/tasks/{name}", Role.ADMIN),
          new Row("DELETE", "/api/v1/admin/tasks/{name}", Role.ADMIN),
          new Row("POST", "/api/v1/admin/bizes", Role.ADMIN));

  @LocalServerPort int port;

  @Autowired
  @Qualifier("requestMappingHandlerMapping")
  RequestMappingHandlerMapping mappings;

  /**
   * Every admin mapping of this build as {@link Row#key}s; a mapping of any method counts as each.
   */
  private Set<String> adminMappings() {
    Set<String> keys = new TreeSet<>();
    for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mappings.getHandlerMethods().entrySet()) {
      var methods = e.getKey().getMethodsCondition().getMethods();
      List<String> verbs =
          methods.isEmpty()
              ? List.of("GET", "POST", "PUT", "PATCH", "DELETE")
              : methods.stream().map(RequestMethod::name).toList();
      for (String pattern : e.getKey().getPatternValues()) {
        if (AdminGuardFilter.under(pattern, AdminGuardFilter.ADMIN_API)) {
          verbs.forEach(verb -> keys.add(Row.key(verb, pattern)));
        }
      }
    }
    return keys;
  }

  /** The rows this build maps, and a HEAD beside each GET. */
  private List<Row> rows() {
    Set<String> mapped = adminMappings();
    List<Row> rows = new ArrayList<>();
    for (Row row : TABLE) {
      if (mapped.contains(row.key())) {
        rows.add(row);
        if (row.method().equals("GET")) {
          rows.add(row.head());
        }
      }
    }
    // A rule over no rows would pass whatever the code does.
    assertThat(rows).extracting(Row::role).contains(Role.VIEWER, Role.OPERATOR, Role.ADMIN);
    return rows;
  }

  private RawHttp.Answer call(Row row, String token) throws IOException {
    return token == null
        ? RawHttp.exchange(port, row.method(), row.path())
        : RawHttp.exchange(port, row.method(), row.path(), "Authorization", "Bearer " + token);
  }

  @Test
  void everyAdminMapping_isInTheTable() {
    Set<String> table = TABLE.stream().map(Row::key).collect(Collectors.toSet());
    Set<String> missing = new TreeSet<>(adminMappings());
    missing.removeAll(table);
    assertThat(missing).as("admin mappings without a row in TABLE").isEmpty();
    assertThat(adminMappings()).hasSizeGreaterThanOrEqualTo(18);
  }

  @Test
  void theOperatorDigest_isTheSha256OfItsToken() {
    assertThat(HexFormat.of().formatHex(Operators.sha256(OPERATOR))).isEqualTo(OPERATOR_SHA256);
  }

  @Test
  void withoutAToken_orWithAWrongOne_everyAdminCallIs401() throws IOException {
    for (Row row : rows()) {
      assertThat(call(row, null).status()).as(row.toString()).isEqualTo(401);
      assertThat(call(row, "not-a-token").status()).as(row.toString()).isEqualTo(401);
      assertThat(call(row, VIEWER + "x").status()).as(row.toString()).isEqualTo(401);
    }
  }

  @ParameterizedTest
  @EnumSource(Role.class)
  void eachRole_isRefusedExactlyTheRowsAboveIt(Role role) throws IOException {
    int allowed = 0;
    int refused = 0;
    for (Row row : rows()) {
      RawHttp.Answer answer = call(row, TOKENS.get(role));
      if (role.allows(row.role())) {
        assertThat(answer.status()).as(role + " " + row).isNotIn(401, 403);
        allowed++;
      } else {
        assertThat(answer.status()).as(role + " " + row).isEqualTo(403);
        assertThat(answer.json().get("type").asString())
            .as(role + " " + row)
            .isEqualTo("https://hotrank.io/problems/forbidden");
        assertThat(answer.json().get("detail").asString())
            .as(role + " " + row)
            .contains("needs role '" + row.role().configName() + "'")
            .contains("operator '" + NAMES.get(role) + "' has role '" + role.configName() + "'");
        refused++;
      }
    }
    assertThat(allowed).as("rows allowed to " + role).isPositive();
    if (role == Role.ADMIN) {
      assertThat(refused).as("rows refused to the admin").isZero();
    } else {
      assertThat(refused).as("rows refused to " + role).isPositive();
    }
  }

  @Test
  void everyAdminMappingThatIsNotARead_namesItsRole() {
    List<String> unannotated = new ArrayList<>();
    for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mappings.getHandlerMethods().entrySet()) {
      boolean admin =
          e.getKey().getPatternValues().stream()
              .anyMatch(p -> AdminGuardFilter.under(p, AdminGuardFilter.ADMIN_API));
      var methods = e.getKey().getMethodsCondition().getMethods();
      boolean read =
          !methods.isEmpty()
              && methods.stream().allMatch(m -> m == RequestMethod.GET || m == RequestMethod.HEAD);
      if (admin && !read && e.getValue().getMethodAnnotation(AdminAction.class) == null) {
        unannotated.add(e.getKey().toString());
      }
    }
    assertThat(unannotated).as("admin changes without @AdminAction").isEmpty();
  }

  @Test
  void metrics_needAnyOperator() throws IOException {
    assertThat(RawHttp.exchange(port, "GET", "/actuator/metrics").status()).isEqualTo(401);
    assertThat(
            RawHttp.exchange(port, "GET", "/actuator/metrics", "Authorization", "Bearer " + VIEWER)
                .status())
        .isEqualTo(200);
    assertThat(
            RawHttp.exchange(
                    port, "POST", "/actuator/metrics", "Authorization", "Bearer " + OPERATOR)
                .status())
        .isEqualTo(403);
  }
}
