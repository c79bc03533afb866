package io.hotrank.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.ApiTestSupport;
import io.hotrank.support.HttpJson.Answer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The served OpenAPI document against what the service really accepts and answers, as a client
 * typed from the document would meet it: every operation of the README's session and of each
 * capability is called, and each call's path, parameters and body must be the document's, its
 * answer's status one the document lists, and its answer's body must validate against the
 * document's schema <i>closed</i>: every field of every object declared with its type (a free-form
 * object or an object of no properties types nothing a client can read). A numeric query parameter
 * the service refuses in another form (400) must be typed integer. Shares {@code H2ApiTest}'s
 * Spring context.
 *
 * <p>The check is written here rather than with a JSON Schema validator because JSON Schema accepts
 * undeclared properties by default: a validator would pass exactly the untyped answers this test
 * exists to catch, unless every schema of the document were rewritten first.
 */
@TestPropertySource(properties = "hotrank.data-dir=target/test-data/h2")
class OpenApiConformanceTest extends ApiTestSupport {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private JsonNode document;
  private final List<String> wrong = new ArrayList<>();
  private final Map<String, Integer> checked = new LinkedHashMap<>();

  @Override
  protected String engine() {
    return "H2";
  }

  /** One call, checked against the document. */
  private Answer call(
      String method, String path, Map<String, String> query, @Nullable String body) {
    StringBuilder url = new StringBuilder(path);
    String separator = "?";
    for (Map.Entry<String, String> q : query.entrySet()) {
      url.append(separator)
          .append(q.getKey())
          .append('=')
          .append(URLEncoder.encode(q.getValue(), StandardCharsets.UTF_8));
      separator = "&";
    }
    String[] auth = path.startsWith("/api/v1/admin/") ? http.adminHeader() : new String[0];
    Answer answer =
        switch (method) {
          case "get" -> http.get(url.toString(), auth);
          case "post" -> http.post(url.toString(), body == null ? "" : body, auth);
          case "put" -> http.put(url.toString(), body == null ? "" : body, auth);
          case "delete" -> http.delete(url.toString(), auth);
          default -> throw new IllegalArgumentException(method);
        };
    String where = method.toUpperCase() + " " + path;
    JsonNode operation = operation(method, path);
    if (operation == null) {
      wrong.add(where + ": no operation of the document matches");
      return answer;
    }
    checked.merge(method + " " + template(path), 1, Integer::sum);
    for (String name : query.keySet()) {
      JsonNode parameter = parameter(operation, name, "query");
      if (parameter == null) {
        wrong.add(where + ": query parameter '" + name + "' is not in the document");
      } else if (query.get(name).matches("-?\\d+")) {
        probeInteger(method, path, query, name, parameter, where);
      }
    }
    // A body the service refused (400) may break the document's rules: that is why it was sent.
    if (body != null && !body.isEmpty() && answer.status() != 400) {
      JsonNode schema = operation.at("/requestBody/content/application~1json/schema");
      if (schema.isMissingNode()) {
        wrong.add(where + ": the document takes no JSON body");
      } else {
        validate(schema, JSON.readTree(body), where + " request body", "$");
      }
    }
    JsonNode response =
        resolve(operation.path("responses").path(Integer.toString(answer.status())));
    if (response.isMissingNode()) {
      wrong.add(where + ": answered " + answer.status() + ", which the document does not list");
      return answer;
    }
    String type = answer.header("Content-Type");
    String media =
        type == null
            ? ""
            : type.startsWith("application/problem+json")
                ? "application~1problem+json"
                : type.startsWith("application/json") ? "application~1json" : "";
    if (answer.raw().length > 0 && !media.isEmpty()) {
      JsonNode schema = response.at("/content/" + media + "/schema");
      if (schema.isMissingNode()) {
        wrong.add(where + " " + answer.status() + ": JSON answered, none documented");
      } else {
        validate(schema, answer.json(), where + " " + answer.status(), "$");
      }
    }
    return answer;
  }

  private Answer get(String path, String... query) {
    Map<String, String> q = new LinkedHashMap<>();
    for (int i = 0; i < query.length; i += 2) {
      q.put(query[i], query[i + 1]);
    }
    return call("get", path, q, null);
  }

  /** A parameter the service refuses in a form other than digits must be typed integer. */
  private void probeInteger(
      String method,
      String path,
      Map<String, String> query,
      String name,
      JsonNode parameter,
      String where) {
    if (!method.equals("get")) {
      return;
    }
    StringBuilder url = new StringBuilder(path).append('?');
    query.forEach(
        (k, v) ->
            url.append(k)
                .append('=')
                .append(k.equals(name) ? "x" : URLEncoder.encode(v, StandardCharsets.UTF_8))
                .append('&'));
    String[] auth = path.startsWith("/api/v1/admin/") ? http.adminHeader() : new String[0];
    if (http.get(url.toString(), auth).status() == 400) {
      String declared = resolve(parameter.path("schema")).path("type").asString("");
      if (!declared.equals("integer")) {
        wrong.add(
            where + ": parameter '" + name + "' takes integers only, typed '" + declared + "'");
      }
    }
  }

  private @Nullable JsonNode operation(String method, String path) {
    String template = template(path);
    return template == null ? null : document.path("paths").path(template).get(method);
  }

  /**
   * The document's path template matching a concrete path; of several, the one with the fewest
   * variables, as the service routes ({@code /review/authors/7} before {@code /review/{biz}/{id}}).
   */
  private @Nullable String template(String path) {
    String best = null;
    for (String template : document.path("paths").propertyNames()) {
      String regex = template.replace(".", "\\.").replaceAll("\\{[^}]+}", "[^/]+");
      if (path.matches(regex) && (best == null || variables(template) < variables(best))) {
        best = template;
      }
    }
    return best;
  }

  private static long variables(String template) {
    return template.chars().filter(c -> c == '{').count();
  }

  private @Nullable JsonNode parameter(JsonNode operation, String name, String in) {
    for (JsonNode p : operation.path("parameters")) {
      JsonNode resolved = resolve(p);
      if (resolved.path("name").asString("").equals(name)
          && resolved.path("in").asString("").equals(in)) {
        return resolved;
      }
    }
    return null;
  }

  private JsonNode resolve(JsonNode node) {
    JsonNode at = node;
    for (int i = 0; i < 10 && at.has("$ref"); i++) {
      at = document.at(at.get("$ref").asString().substring(1));
    }
    return at;
  }

  /** Checks an instance against a schema, closed (see the class comment); adds what is wrong. */
  private void validate(JsonNode schemaNode, JsonNode value, String where, String at) {
    JsonNode schema = resolve(schemaNode);
    if (schema.has("oneOf") || schema.has("anyOf")) {
      for (JsonNode branch : schema.has("oneOf") ? schema.get("oneOf") : schema.get("anyOf")) {
        int before = wrong.size();
        validate(branch, value, where, at);
        if (wrong.size() == before) {
          return;
        }
        while (wrong.size() > before) {
          wrong.removeLast();
        }
      }
      wrong.add(where + " " + at + ": matches none of " + schema);
      return;
    }
    List<String> types = new ArrayList<>();
    JsonNode type = schema.get("type");
    if (type != null && type.isArray()) {
      type.forEach(t -> types.add(t.asString()));
    } else if (type != null) {
      types.add(type.asString());
    }
    if (value.isNull()) {
      // A field a client may find null: one the document does not require (checked above).
      return;
    }
    // A value the document declares free on purpose (a task's parameters, an audit entry's
    // states) says so in a description; untyped and undescribed, it is a gap.
    boolean described = schema.has("description");
    if (types.isEmpty() && !schema.has("properties") && !schema.has("allOf")) {
      if (!described) {
        wrong.add(where + " " + at + ": untyped (" + schema + ") for " + abbreviate(value));
      }
      return;
    }
    if (value.isObject()) {
      if (!types.isEmpty() && !types.contains("object")) {
        wrong.add(where + " " + at + ": an object where the document says " + types);
        return;
      }
      Map<String, JsonNode> properties = new LinkedHashMap<>();
      collectProperties(schema, properties);
      JsonNode additional = schema.get("additionalProperties");
      boolean typedMap = additional != null && additional.isObject() && !additional.isEmpty();
      if (properties.isEmpty() && !typedMap) {
        if (!described) {
          wrong.add(where + " " + at + ": an object of no declared fields (" + schema + ")");
        }
        return;
      }
      for (Iterator<String> it = value.propertyNames().iterator(); it.hasNext(); ) {
        String field = it.next();
        JsonNode declared = properties.get(field);
        if (declared != null) {
          validate(declared, value.get(field), where, at + "." + field);
        } else if (typedMap) {
          validate(additional, value.get(field), where, at + "." + field);
        } else {
          wrong.add(where + " " + at + ": field '" + field + "' is not in the document");
        }
      }
      for (JsonNode required : schema.path("required")) {
        JsonNode field = value.get(required.asString());
        if (field == null) {
          wrong.add(where + " " + at + ": required field '" + required.asString() + "' absent");
        } else if (field.isNull()) {
          wrong.add(where + " " + at + ": required field '" + required.asString() + "' is null");
        }
      }
    } else if (value.isArray()) {
      if (!types.contains("array")) {
        wrong.add(where + " " + at + ": an array where the document says " + types);
        return;
      }
      int i = 0;
      for (JsonNode element : value) {
        validate(schema.path("items"), element, where, at + "[" + i++ + "]");
      }
    } else if (value.isString()) {
      if (!types.contains("string")) {
        wrong.add(where + " " + at + ": a string where the document says " + types);
      } else if (schema.has("enum")) {
        boolean listed = false;
        for (JsonNode e : schema.get("enum")) {
          listed |= e.asString().equals(value.asString());
        }
        if (!listed) {
          wrong.add(
              where + " " + at + ": '" + value.asString() + "' is not in " + schema.get("enum"));
        }
      }
    } else if (value.isIntegralNumber()) {
      if (!types.contains("integer") && !types.contains("number")) {
        wrong.add(where + " " + at + ": an integer where the document says " + types);
      }
    } else if (value.isNumber()) {
      if (!types.contains("number")) {
        wrong.add(where + " " + at + ": a number where the document says " + types);
      }
    } else if (value.isBoolean() && !types.contains("boolean")) {
      wrong.add(where + " " + at + ": a boolean where the document says " + types);
    }
  }

  private void collectProperties(JsonNode schemaNode, Map<String, JsonNode> into) {
    JsonNode schema = resolve(schemaNode);
    schema.path("properties").properties().forEach(e -> into.put(e.getKey(), e.getValue()));
    for (JsonNode part : schema.path("allOf")) {
      collectProperties(part, into);
    }
  }

  private static String abbreviate(JsonNode value) {
    String text = value.toString();
    return text.length() > 120 ? text.substring(0, 120) + "..." : text;
  }

  @Test
  void everyOperationCalled_isTheDocuments_withItsParametersBodiesAndAnswers() {
    document = http.get("/v3/api-docs").json();

    // The README's session, on this configuration's boards.
    call(
        "post",
        "/api/v1/items",
        Map.of(),
        "{\"biz\":\"news\",\"id\":1,\"authorId\":7,\"title\":\"Hello\",\"tags\":[\"java\",\"news\"]}");
    call(
        "post",
        "/api/v1/items",
        Map.of(),
        "{\"biz\":\"news\",\"id\":2,\"authorId\":8,\"title\":\"Two\",\"tags\":[\"java\"],"
            + "\"attributes\":{\"lang\":\"en\"}}");
    call(
        "post",
        "/api/v1/events",
        Map.of(),
        "{\"events\":[{\"biz\":\"news\",\"itemId\":1,\"type\":\"like\",\"userId\":3},"
            + "{\"biz\":\"news\",\"itemId\":2,\"type\":\"comment\"}]}");
    call("post", "/api/v1/admin/events/fold", Map.of(), null);
    call("post", "/api/v1/admin/boards/news-hn/recompute", Map.of(), null);
    String cursor =
        get("/api/v1/boards/news-hn", "limit", "1").json().path("nextCursor").asString("");
    get("/api/v1/boards/news-hn", "cursor", cursor);
    get("/api/v1/boards/news-hn", "offset", "1", "limit", "1");
    get("/api/v1/boards");
    get("/api/v1/admin/jobs");
    get("/api/v1/items/news/2");
    get("/api/v1/items/news", "ids", "1,2,3");
    get("/api/v1/admin/hotkeys");
    call(
        "put",
        "/api/v1/admin/boards/news-hn/controls/1",
        Map.of(),
        "{\"action\":\"pin\",\"position\":1,\"expiresAt\":\"2030-01-01T00:00:00Z\",\"reason\":\"launch\"}");
    call(
        "put",
        "/api/v1/admin/boards/news-hn/controls/2",
        Map.of(),
        "{\"action\":\"boost\",\"factor\":2.5,\"reason\":\"promo\"}");
    get("/api/v1/boards/news-hn");
    get("/api/v1/admin/boards/news-hn/controls");
    get("/api/v1/admin/audit", "target", "board:news-hn/*", "limit", "5");
    call("delete", "/api/v1/admin/boards/news-hn/controls/2", Map.of("reason", "done"), null);
    call("put", "/api/v1/actors/1001", Map.of(), "{\"createdAt\":\"2026-05-01T00:00:00Z\"}");
    get("/api/v1/actors/1001");
    get("/api/v1/admin/review", "board", "review-required");
    // Each capability's other reads.
    get("/api/v1/boards/news-hn/items/1/explain");
    get("/api/v1/boards/trust-window-tag/segments", "limit", "5");
    get("/api/v1/boards/trust-window-tag/segments/java");
    get("/api/v1/admin/boards/news-hn/candidates");
    JsonNode tasks = get("/api/v1/admin/tasks").json().path("tasks");
    if (!tasks.isEmpty()) {
      String task = tasks.get(0).path("name").asString();
      get("/api/v1/admin/tasks/" + task);
      get("/api/v1/admin/tasks/" + task + "/runs", "limit", "2", "offset", "0");
    }
    call("post", "/api/v1/admin/boards/expl-window/rebuild", Map.of(), null);
    call("post", "/api/v1/admin/boards/trust-window-tag/recompute", Map.of(), null);
    get("/api/v1/admin/ingest");
    get("/api/v1/feeds/latest", "limit", "2");
    get("/api/v1/feeds/tags/java", "limit", "2");
    // The rest of the document's operations.
    get("/api/v1/boards/trust-window-tag/segments/java/items/1/explain");
    get("/api/v1/boards/news-hn/feed.atom", "limit", "2");
    get("/api/v1/boards/trust-window-tag/segments/java/feed.json");
    call("put", "/api/v1/items/news/2", Map.of(), "{\"authorId\":8,\"title\":\"Two, edited\"}");
    call(
        "post",
        "/api/v1/items",
        Map.of(),
        "{\"biz\":\"news\",\"id\":9,\"authorId\":8,\"title\":\"Gone soon\"}");
    call("delete", "/api/v1/items/news/9", Map.of(), null);
    call("put", "/api/v1/users/5/following/7", Map.of(), null);
    call("post", "/api/v1/admin/feeds/fanout", Map.of(), null);
    get("/api/v1/users/5/feed", "limit", "2");
    get("/api/v1/users/5/following", "limit", "2");
    get("/api/v1/users/7/followers", "limit", "2");
    call("delete", "/api/v1/users/5/following/7", Map.of(), null);
    call("put", "/api/v1/admin/actors/1001/flag", Map.of(), "{\"reason\":\"ring\"}");
    get("/api/v1/admin/actors/1001");
    call("delete", "/api/v1/admin/actors/1001/flag", Map.of(), null);
    get("/api/v1/admin/bizes");
    call("post", "/api/v1/admin/bizes", Map.of(), "{\"name\":\"conformance\"}");
    call(
        "put",
        "/api/v1/admin/review/news/1",
        Map.of(),
        "{\"status\":\"approved\",\"reason\":\"ok\"}");
    call("put", "/api/v1/admin/review/authors/7", Map.of(), "{\"status\":\"pending\"}");
    call(
        "put",
        "/api/v1/admin/boards/trust-window-tag/segments/java/controls/1",
        Map.of(),
        "{\"action\":\"block\",\"reason\":\"spam\"}");
    get("/api/v1/admin/boards/trust-window-tag/segments/java/controls");
    call(
        "delete", "/api/v1/admin/boards/trust-window-tag/segments/java/controls/1", Map.of(), null);
    call(
        "post",
        "/api/v1/admin/tasks",
        Map.of(),
        "{\"name\":\"conformance-task\",\"job\":\"event-log-prune\",\"interval\":\"1h\","
            + "\"paused\":true,\"parameters\":{\"note\":\"x\"}}");
    call(
        "put",
        "/api/v1/admin/tasks/conformance-task",
        Map.of(),
        "{\"name\":\"conformance-task\",\"job\":\"event-log-prune\",\"interval\":\"2h\","
            + "\"paused\":true}");
    call("post", "/api/v1/admin/tasks/conformance-task/resume", Map.of(), null);
    call("post", "/api/v1/admin/tasks/conformance-task/pause", Map.of(), null);
    call("post", "/api/v1/admin/tasks/conformance-task/trigger", Map.of(), null);
    get("/api/v1/admin/tasks/conformance-task");
    get("/api/v1/admin/tasks/conformance-task/runs", "limit", "2", "offset", "0");
    call("delete", "/api/v1/admin/tasks/conformance-task", Map.of(), null);
    // Problems: unknown board, bad input.
    get("/api/v1/boards/nope");
    get("/api/v1/boards/news-hn", "limit", "0");
    call("put", "/api/v1/admin/boards/news-hn/controls/1", Map.of(), "{\"action\":\"pin\"}");
    call(
        "put",
        "/api/v1/admin/boards/news-hn/controls/2",
        Map.of(),
        "{\"action\":\"second-chance\",\"reason\":\"again\"}");
    Answer refused =
        call(
            "put",
            "/api/v1/admin/boards/news-hn/controls/2",
            Map.of(),
            "{\"action\":\"second-chance\",\"reason\":\"once more\"}");
    assertThat(refused.status()).as(refused.body()).isEqualTo(409);

    // Every operation of the document was called.
    List<String> uncalled = new ArrayList<>();
    document
        .path("paths")
        .properties()
        .forEach(
            path ->
                path.getValue()
                    .propertyNames()
                    .forEach(
                        method -> {
                          if (!checked.containsKey(method + " " + path.getKey())) {
                            uncalled.add(method + " " + path.getKey());
                          }
                        }));
    assertThat(uncalled).as("operations no call checked").isEmpty();
    assertThat(wrong).as(String.join("\n", wrong)).isEmpty();
  }
}
