package io.hotrank.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.RawHttp;
import io.hotrank.support.TestData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
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
 * Each role against every admin mapping, enumerated from Spring MVC's own handler mapping so that a
 * new endpoint is covered without touching this test: no token and a wrong token are 401 whatever
 * the role; a viewer reads everything and changes nothing (403); an operator is refused only what
 * needs an admin; an admin is never refused. And every admin mapping that is not a read names its
 * role, so that none is admin-only by accident.
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

  @LocalServerPort int port;

  @Autowired
  @Qualifier("requestMappingHandlerMapping")
  RequestMappingHandlerMapping mappings;

  /** One admin request: a method, a concrete path, and the role its handler needs. */
  record Call(String method, String path, Role needed, boolean annotated) {
    boolean read() {
      return method.equals("GET") || method.equals("HEAD");
    }
  }

  private List<Call> adminCalls() {
    List<Call> calls = new ArrayList<>();
    for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mappings.getHandlerMethods().entrySet()) {
      AdminAction action = e.getValue().getMethodAnnotation(AdminAction.class);
      for (String pattern : e.getKey().getPatternValues()) {
        if (!pattern.startsWith("/api/v1/admin")) {
          continue;
        }
        String path = pattern.replaceAll("\\{[^}]+}", "no-such-x");
        var methods = e.getKey().getMethodsCondition().getMethods();
        List<String> verbs =
            methods.isEmpty()
                ? List.of("GET", "POST", "PUT", "DELETE")
                : methods.stream().map(RequestMethod::name).toList();
        for (String verb : verbs) {
          boolean read = verb.equals("GET") || verb.equals("HEAD");
          Role needed = action != null ? action.value() : read ? Role.VIEWER : Role.ADMIN;
          calls.add(new Call(verb, path, needed, action != null));
        }
      }
    }
    // A rule over no mappings would pass whatever the code does.
    assertThat(calls)
        .extracting(Call::path)
        .contains("/api/v1/admin/jobs", "/api/v1/admin/tasks", "/api/v1/admin/audit");
    return calls;
  }

  private RawHttp.Answer call(Call call, String token) throws IOException {
    return token == null
        ? RawHttp.exchange(port, call.method(), call.path())
        : RawHttp.exchange(port, call.method(), call.path(), "Authorization", "Bearer " + token);
  }

  @Test
  void theOperatorDigest_isTheSha256OfItsToken() {
    assertThat(HexFormat.of().formatHex(Operators.sha256(OPERATOR))).isEqualTo(OPERATOR_SHA256);
  }

  @Test
  void withoutAToken_orWithAWrongOne_everyAdminCallIs401() throws IOException {
    for (Call call : adminCalls()) {
      assertThat(call(call, null).status()).as(call.toString()).isEqualTo(401);
      assertThat(call(call, "not-a-token").status()).as(call.toString()).isEqualTo(401);
      assertThat(call(call, VIEWER + "x").status()).as(call.toString()).isEqualTo(401);
    }
  }

  @Test
  void aViewer_readsEverything_andChangesNothing() throws IOException {
    for (Call call : adminCalls()) {
      RawHttp.Answer answer = call(call, VIEWER);
      if (call.read() && call.needed() == Role.VIEWER) {
        assertThat(answer.status()).as(call.toString()).isNotIn(401, 403);
      } else {
        assertThat(answer.status()).as(call.toString()).isEqualTo(403);
        assertThat(answer.json().get("type").asString())
            .isEqualTo("https://hotrank.io/problems/forbidden");
        assertThat(answer.json().get("detail").asString())
            .as(call.toString())
            .contains("needs role '" + call.needed().configName() + "'")
            .contains("operator 'vera' has role 'viewer'");
      }
    }
  }

  @Test
  void anOperator_isRefusedOnlyWhatNeedsAnAdmin() throws IOException {
    int refused = 0;
    int allowedChanges = 0;
    for (Call call : adminCalls()) {
      RawHttp.Answer answer = call(call, OPERATOR);
      if (call.needed() == Role.ADMIN) {
        assertThat(answer.status()).as(call.toString()).isEqualTo(403);
        assertThat(answer.json().get("detail").asString()).contains("needs role 'admin'");
        refused++;
      } else {
        assertThat(answer.status()).as(call.toString()).isNotIn(401, 403);
        allowedChanges += call.read() ? 0 : 1;
      }
    }
    assertThat(refused).as("task create/update/delete, biz create").isGreaterThanOrEqualTo(4);
    assertThat(allowedChanges)
        .as("pause, resume, trigger, recompute, rebuild, fold")
        .isGreaterThanOrEqualTo(6);
  }

  @Test
  void theAdmin_isNeverRefused() throws IOException {
    for (Call call : adminCalls()) {
      assertThat(call(call, ADMIN).status()).as(call.toString()).isNotIn(401, 403);
    }
  }

  @Test
  void everyAdminMappingThatIsNotARead_namesItsRole() {
    List<Call> unannotated =
        adminCalls().stream().filter(c -> !c.read() && !c.annotated()).toList();
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
