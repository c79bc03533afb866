package io.hotrank.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import io.hotrank.support.TestData;
import io.hotrank.web.Operator;
import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document against the running service: every controller mapping of hotrank (each path
 * template with each method, whichever module declares it, the console's HTML excepted) is an
 * operation of {@code /v3/api-docs}, so a controller added without its description fails here;
 * admin operations need the bearer token and every operation states its problem answers; the
 * document is valid OpenAPI 3; Swagger UI is served from the webjar, and neither is behind the
 * admin token or a rate limit.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "openapi",
      // On, with the defaults users get: the document and the UI must not be counted.
      "hotrank.limits.enabled=true"
    })
@Import(OpenApiDocumentTest.ProbeController.class)
class OpenApiDocumentTest {

  static {
    TestData.empty("openapi");
  }

  /**
   * An admin endpoint taking the injected {@link Operator}, a path variable and a query parameter,
   * as the operator controls do: its operator must not show as a parameter. Nested in the test, so
   * only this context has it.
   */
  @RestController
  static class ProbeController {
    @GetMapping("/api/v1/admin/openapi-probe/{id}")
    String probe(Operator operator, @PathVariable String id, @RequestParam String reason) {
      return operator.name() + id + reason;
    }
  }

  @LocalServerPort int port;
  @Autowired ApplicationContext context;

  private HttpJson http;
  private JsonNode document;

  @BeforeEach
  void fetchTheDocument() {
    http = new HttpJson("http://127.0.0.1:" + port, "unused");
    HttpJson.Answer answer = http.get("/v3/api-docs");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    document = answer.json();
  }

  @Test
  void everyControllerMapping_isAnOperationOfTheDocument() {
    List<String> mappings = controllerMappings();
    // A check over nothing passes whatever: the board, item, admin and probe mappings must be in.
    assertThat(mappings)
        .contains(
            "GET /api/v1/boards/{name}",
            "POST /api/v1/items",
            "POST /api/v1/admin/boards/{name}/recompute",
            "GET /api/v1/admin/openapi-probe/{id}");
    List<String> missing = new ArrayList<>();
    for (String mapping : mappings) {
      String method = mapping.substring(0, mapping.indexOf(' '));
      String path = mapping.substring(mapping.indexOf(' ') + 1);
      JsonNode item = document.path("paths").path(path);
      boolean found =
          method.equals("ANY")
              ? item.isObject() && !item.isEmpty()
              : item.has(method.toLowerCase(Locale.ROOT));
      if (!found) {
        missing.add(mapping);
      }
    }
    assertThat(missing).as("controller mappings missing from /v3/api-docs").isEmpty();
    assertThat(document.path("paths").propertyNames()).noneMatch(p -> p.startsWith("/console"));
  }

  @Test
  void operations_areTaggedByCapability_withUniqueIds() {
    List<String> ids =
        operations().stream().map(op -> op.operation().path("operationId").asString()).toList();
    assertThat(ids).doesNotHaveDuplicates().doesNotContain("");
    JsonNode read = document.at("/paths/~1api~1v1~1boards~1{name}/get");
    assertThat(read.path("operationId").asString()).isEqualTo("boardRead");
    assertThat(read.at("/tags/0").asString()).isEqualTo("board");
    assertThat(document.at("/paths/~1api~1v1~1admin~1tasks/post/tags/0").asString())
        .isEqualTo("task");
  }

  @Test
  void successAnswers_areTheStatusesTheControllersSend() {
    JsonNode create = document.at("/paths/~1api~1v1~1items/post/responses");
    assertThat(create.has("201")).isTrue();
    assertThat(create.has("200")).isFalse();
    assertThat(create.at("/201/content/application~1json/schema/$ref").asString())
        .isEqualTo("#/components/schemas/Item");
    JsonNode delete = document.at("/paths/~1api~1v1~1items~1{biz}~1{id}/delete/responses");
    assertThat(delete.has("204")).isTrue();
    assertThat(delete.has("200")).isFalse();
    JsonNode read = document.at("/paths/~1api~1v1~1boards~1{name}/get/responses");
    assertThat(read.at("/200/content/application~1json/schema/$ref").asString())
        .isEqualTo("#/components/schemas/BoardPage");
    assertThat(read.has("304")).isTrue();
  }

  @Test
  void itemAttributes_areAMapOfStrings_inTheItemAndItsRequest_afterTheTags() {
    JsonNode item = document.at("/components/schemas/Item/properties");
    assertThat(item.propertyNames()).containsSubsequence("tags", "attributes", "createdAt");
    assertThat(item.at("/attributes/type").asString()).isEqualTo("object");
    assertThat(item.at("/attributes/additionalProperties/type").asString()).isEqualTo("string");
    JsonNode request = document.at("/components/schemas/ItemRequest/properties/attributes");
    assertThat(request.at("/type").asString()).isEqualTo("object");
    assertThat(request.at("/additionalProperties/type").asString()).isEqualTo("string");
    assertThat(request.at("/maxProperties").asInt()).isEqualTo(8);
    assertThat(request.at("/description").asString()).contains("[a-z][a-z0-9_-]{0,31}");
  }

  @Test
  void adminOperations_needTheBearerToken_andOthersDoNot() {
    assertThat(document.at("/components/securitySchemes/bearerAuth/type").asString())
        .isEqualTo("http");
    assertThat(document.at("/components/securitySchemes/bearerAuth/scheme").asString())
        .isEqualTo("bearer");
    List<String> wrong = new ArrayList<>();
    int admin = 0;
    for (Op op : operations()) {
      boolean secured = false;
      for (JsonNode requirement : op.operation().path("security")) {
        secured |= requirement.has("bearerAuth");
      }
      boolean isAdmin = op.path().startsWith("/api/v1/admin/");
      admin += isAdmin ? 1 : 0;
      if (secured != isAdmin) {
        wrong.add(op + (isAdmin ? " lacks" : " has") + " the bearerAuth requirement");
      }
      if (isAdmin && !refersTo(op, "401", "Unauthorized")) {
        wrong.add(op + " lacks its 401 problem");
      }
    }
    assertThat(admin).isGreaterThan(5);
    assertThat(wrong).isEmpty();
  }

  @Test
  void everyWrite_takesAnIdempotencyKey_andAnswersItsProblems() {
    List<String> wrong = new ArrayList<>();
    int writes = 0;
    for (Op op : operations()) {
      if (!op.path().startsWith("/api/v1/") || List.of("get", "head").contains(op.method())) {
        continue;
      }
      writes++;
      boolean keyed = false;
      for (JsonNode p : op.operation().path("parameters")) {
        keyed |= p.path("$ref").asString("").endsWith("/parameters/IdempotencyKey");
      }
      if (!keyed) {
        wrong.add(op + " lacks the Idempotency-Key header");
      }
      if (!op.operation().at("/responses/409").isObject()
          || !refersTo(op, "422", "IdempotencyKeyReused")) {
        wrong.add(op + " lacks its 409 or 422");
      }
    }
    assertThat(writes).isGreaterThan(10);
    assertThat(wrong).isEmpty();
    JsonNode key = document.at("/components/parameters/IdempotencyKey");
    assertThat(key.path("in").asString()).isEqualTo("header");
    assertThat(key.path("name").asString()).isEqualTo("Idempotency-Key");
    assertThat(key.at("/schema/maxLength").asInt()).isEqualTo(255);
  }

  @Test
  void everyOperation_answersProblemsOf503And429_andInputErrorsWhereItTakesInput() {
    List<String> wrong = new ArrayList<>();
    for (Op op : operations()) {
      for (String status : List.of("429", "503")) {
        if (!op.operation().at("/responses/" + status).has("$ref")) {
          wrong.add(op + " lacks its " + status + " problem");
        }
      }
      boolean takesInput =
          op.operation().has("requestBody") || !op.operation().path("parameters").isEmpty();
      if (takesInput && !refersTo(op, "400", "BadRequest")) {
        wrong.add(op + " takes input but lacks its 400 problem");
      }
      if (op.path().contains("{") && !op.operation().at("/responses/404").isObject()) {
        wrong.add(op + " has a path variable but lacks its 404");
      }
    }
    assertThat(wrong).isEmpty();
    JsonNode unavailable = document.at("/components/responses/ServiceUnavailable");
    assertThat(unavailable.at("/content/application~1problem+json/schema/$ref").asString())
        .isEqualTo("#/components/schemas/Problem");
    assertThat(unavailable.at("/headers/Retry-After").isObject()).isTrue();
    JsonNode problem = document.at("/components/schemas/Problem/properties");
    assertThat(problem.propertyNames())
        .containsExactlyInAnyOrder("type", "title", "status", "detail", "instance", "errors");
    assertThat(
            document.at("/components/schemas/FieldViolation/properties").propertyNames().stream()
                .toList())
        .containsExactlyInAnyOrder("field", "message");
  }

  @Test
  void theInjectedOperator_isNoParameter() {
    JsonNode probe = document.at("/paths/~1api~1v1~1admin~1openapi-probe~1{id}/get");
    Set<String> parameters = new TreeSet<>();
    probe.path("parameters").forEach(p -> parameters.add(p.path("name").asString()));
    assertThat(parameters).containsExactly("id", "reason");
    assertThat(probe.has("requestBody")).isFalse();
  }

  @Test
  void theDocument_isValidOpenApi3() throws IOException {
    String json = http.get("/v3/api-docs").body();
    // For people to read, and for a client generator to try, without starting the service.
    Files.writeString(Path.of("target", "openapi.json"), json);
    SwaggerParseResult result = new OpenAPIParser().readContents(json, null, null);
    assertThat(result.getMessages()).isEmpty();
    assertThat(result.getOpenAPI()).isNotNull();
    assertThat(result.getOpenAPI().getOpenapi()).startsWith("3.");
    assertThat(result.getOpenAPI().getInfo().getTitle()).isEqualTo("hotrank");
    assertThat(result.getOpenAPI().getInfo().getVersion()).isNotBlank();
  }

  @Test
  void swaggerUi_isServedFromTheWebjar_withoutTokenOrRateLimit() {
    HttpJson.Answer redirect = http.get("/swagger-ui.html");
    assertThat(redirect.status()).isEqualTo(302);
    assertThat(redirect.header("Location")).endsWith("/swagger-ui/index.html");
    HttpJson.Answer page = http.get("/swagger-ui/index.html");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.body()).contains("swagger-ui-bundle.js");
    HttpJson.Answer bundle = http.get("/swagger-ui/swagger-ui-bundle.js");
    assertThat(bundle.status()).isEqualTo(200);
    assertThat(bundle.raw().length).isGreaterThan(100_000);
    HttpJson.Answer yaml = http.get("/v3/api-docs.yaml");
    assertThat(yaml.status()).isEqualTo(200);
    assertThat(yaml.body()).startsWith("openapi: 3.");
    HttpJson.Answer config = http.get("/v3/api-docs/swagger-config");
    assertThat(config.status()).isEqualTo(200);
    assertThat(config.json().path("url").asString()).isEqualTo("/v3/api-docs");
    // The limits are on here: an admin call is counted (before its token is checked), the
    // document and the UI are not.
    assertThat(http.get("/api/v1/admin/jobs").header("RateLimit-Policy")).startsWith("\"admin\"");
    assertThat(http.get("/v3/api-docs").header("RateLimit-Policy")).isNull();
    assertThat(page.header("RateLimit-Policy")).isNull();
  }

  /** Every path template and method of hotrank's own controllers, as "GET /path/{var}". */
  private List<String> controllerMappings() {
    Set<String> mappings = new TreeSet<>();
    for (RequestMappingHandlerMapping handlers :
        context.getBeansOfType(RequestMappingHandlerMapping.class).values()) {
      handlers
          .getHandlerMethods()
          .forEach(
              (info, method) -> {
                if (ours(method)) {
                  mappings.addAll(describe(info));
                }
              });
    }
    return new ArrayList<>(mappings);
  }

  private static boolean ours(HandlerMethod method) {
    return method.getBeanType().getName().startsWith("io.hotrank.");
  }

  private static List<String> describe(RequestMappingInfo info) {
    List<String> out = new ArrayList<>();
    Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
    for (String pattern : info.getPatternValues()) {
      String path = withoutRegex(pattern);
      if (path.equals("/console") || path.startsWith("/console/")) {
        continue;
      }
      if (methods.isEmpty()) {
        out.add("ANY " + path);
      }
      methods.forEach(m -> out.add(m.name() + " " + path));
    }
    return out;
  }

  /** {@code /x/{id:\d+}} is {@code /x/{id}} in the document. */
  private static String withoutRegex(String pattern) {
    return pattern.replaceAll("\\{([^}:]+):[^}]*}", "{$1}");
  }

  private record Op(String method, String path, JsonNode operation) {
    @Override
    public String toString() {
      return method.toUpperCase(Locale.ROOT) + " " + path;
    }
  }

  private List<Op> operations() {
    List<Op> ops = new ArrayList<>();
    document
        .path("paths")
        .properties()
        .forEach(
            path ->
                path.getValue()
                    .properties()
                    .forEach(
                        method -> {
                          if (Set.of("get", "put", "post", "delete", "patch", "head", "options")
                              .contains(method.getKey())) {
                            ops.add(new Op(method.getKey(), path.getKey(), method.getValue()));
                          }
                        }));
    assertThat(ops).isNotEmpty();
    return ops;
  }

  private static boolean refersTo(Op op, String status, String component) {
    return op.operation()
        .at("/responses/" + status + "/$ref")
        .asString("")
        .equals("#/components/responses/" + component);
  }
}
