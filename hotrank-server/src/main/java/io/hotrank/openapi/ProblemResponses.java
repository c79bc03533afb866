package io.hotrank.openapi;

import io.hotrank.web.ProblemRenderer;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * Completes every operation of the document with what hotrank's edge does for all of them, so that
 * no controller carries it: the {@code bearerAuth} requirement on admin paths, and the problem
 * answers ({@code application/problem+json}, the {@code Problem} schema that {@link
 * ProblemRenderer} writes) a client must expect:
 *
 * <ul>
 *   <li>400 where the operation takes a parameter or a body (the problem's {@code errors[]} names
 *       each offending field), 413 where it takes a body ({@code hotrank.web.max-body-size});
 *   <li>401 and 403 on admin paths ({@code /api/v1/admin/**}, {@code /actuator/metrics});
 *   <li>404 where the path has a variable (the board, item, task... it names does not exist);
 *   <li>429 (the rate limits, every path under {@code /api/v1/}) and 503 (a storage layer down,
 *       shutting down) on every operation, with their {@code Retry-After};
 *   <li>the {@code Idempotency-Key} header, 409 and 422 on every write under {@code /api/v1/}.
 * </ul>
 *
 * An answer the controller declared itself is kept. The answers live once under {@code
 * components.responses} and operations refer to them, which keeps the document small.
 */
final class ProblemResponses implements OpenApiCustomizer {

  /** The security scheme's name in the document. */
  static final String BEARER = "bearerAuth";

  /** The paths the admin guard protects: the same prefixes as {@code AdminGuardFilter}. */
  static final List<String> ADMIN_PREFIXES = List.of("/api/v1/admin/", "/actuator/metrics");

  private static final String PROBLEM = "Problem";
  private static final String FIELD_VIOLATION = "FieldViolation";

  private static final String BAD_REQUEST = "BadRequest";
  private static final String UNAUTHORIZED = "Unauthorized";
  private static final String FORBIDDEN = "Forbidden";
  private static final String NOT_FOUND = "NotFound";
  private static final String TOO_LARGE = "PayloadTooLarge";
  private static final String TOO_MANY = "TooManyRequests";
  private static final String UNAVAILABLE = "ServiceUnavailable";
  private static final String KEY_IN_FLIGHT = "IdempotencyKeyInFlight";
  private static final String KEY_REUSED = "IdempotencyKeyReused";
  private static final String IDEMPOTENCY_KEY = "IdempotencyKey";

  private static final java.util.Set<PathItem.HttpMethod> SAFE =
      java.util.Set.of(
          PathItem.HttpMethod.GET, PathItem.HttpMethod.HEAD, PathItem.HttpMethod.OPTIONS);

  @Override
  public void customise(OpenAPI openApi) {
    if (openApi.getComponents() == null) {
      openApi.setComponents(new Components());
    }
    declareComponents(openApi.getComponents());
    if (openApi.getPaths() == null) {
      return;
    }
    openApi
        .getPaths()
        .forEach(
            (path, item) -> {
              item.readOperationsMap()
                  .forEach(
                      (method, operation) -> {
                        if (path.startsWith("/api/v1/") && !SAFE.contains(method)) {
                          idempotent(operation);
                        }
                        complete(path, item, operation);
                      });
            });
  }

  /** Whether a path of the document is behind the admin token. */
  static boolean isAdmin(String path) {
    for (String prefix : ADMIN_PREFIXES) {
      if (path.startsWith(prefix) || path.equals(prefix.substring(0, prefix.length() - 1))) {
        return true;
      }
    }
    return false;
  }

  private static void complete(String path, PathItem item, Operation operation) {
    if (operation.getResponses() == null) {
      operation.setResponses(new ApiResponses());
    }
    ApiResponses responses = operation.getResponses();
    boolean takesInput =
        operation.getRequestBody() != null
            || hasItems(operation.getParameters())
            || hasItems(item.getParameters());
    if (takesInput) {
      refer(responses, "400", BAD_REQUEST);
    }
    if (operation.getRequestBody() != null) {
      refer(responses, "413", TOO_LARGE);
    }
    if (isAdmin(path)) {
      operation.addSecurityItem(new SecurityRequirement().addList(BEARER));
      refer(responses, "401", UNAUTHORIZED);
      refer(responses, "403", FORBIDDEN);
    }
    if (path.contains("{")) {
      refer(responses, "404", NOT_FOUND);
    }
    refer(responses, "429", TOO_MANY);
    refer(responses, "503", UNAVAILABLE);
  }

  /** A write takes {@code Idempotency-Key}, and may answer 409 and 422 for it. */
  private static void idempotent(Operation operation) {
    operation.addParametersItem(
        new io.swagger.v3.oas.models.parameters.Parameter()
            .$ref("#/components/parameters/" + IDEMPOTENCY_KEY));
    if (operation.getResponses() == null) {
      operation.setResponses(new ApiResponses());
    }
    refer(operation.getResponses(), "409", KEY_IN_FLIGHT);
    refer(operation.getResponses(), "422", KEY_REUSED);
  }

  private static boolean hasItems(@org.jspecify.annotations.Nullable List<?> list) {
    return list != null && !list.isEmpty();
  }

  private static void refer(ApiResponses responses, String status, String component) {
    if (!responses.containsKey(status)) {
      responses.addApiResponse(
          status, new ApiResponse().$ref("#/components/responses/" + component));
    }
  }

  private static void declareComponents(Components components) {
    components.addParameters(
        IDEMPOTENCY_KEY,
        new io.swagger.v3.oas.models.parameters.Parameter()
            .in("header")
            .name("Idempotency-Key")
            .required(false)
            .description(
                "1 to 255 printable ASCII characters naming this request for its retries"
                    + " (draft-ietf-httpapi-idempotency-key-header): a repeat with the same key,"
                    + " method, path and body, within `hotrank.idempotency.retention`, gets the"
                    + " first `2xx` answer again with `Idempotent-Replayed: true` and runs nothing."
                    + " Scoped to the client (its API key, else its address).")
            .schema(new StringSchema().minLength(1).maxLength(255).pattern("^[\\x20-\\x7E]+$")));
    components.addSecuritySchemes(
        BEARER,
        new SecurityScheme()
            .type(SecurityScheme.Type.HTTP)
            .scheme("bearer")
            .description(
                "An operator token: `hotrank.admin.token` (generated into"
                    + " `<data-dir>/admin-token` when not set)."));
    components.addSchemas(FIELD_VIOLATION, fieldViolationSchema());
    components.addSchemas(PROBLEM, problemSchema());
    Header retryAfter =
        new Header()
            .description("Whole seconds to wait before trying again")
            .schema(new IntegerSchema().minimum(java.math.BigDecimal.ONE));
    components.addResponses(
        BAD_REQUEST,
        problem(
            "The request is invalid (`invalid-request` and its kin): `errors[]` names each"
                + " offending field or parameter. Nothing was changed."));
    components.addResponses(
        UNAUTHORIZED,
        problem("No valid operator token in `Authorization: Bearer <token>` (`unauthorized`).")
            .addHeaderObject(
                "WWW-Authenticate",
                new Header()
                    .description("`Bearer`, the scheme this endpoint needs")
                    .schema(new StringSchema())));
    components.addResponses(
        FORBIDDEN, problem("The operator's role does not allow this call (`forbidden`)."));
    components.addResponses(
        NOT_FOUND, problem("What the path names does not exist (`…-not-found`, `unknown-biz`)."));
    components.addResponses(
        TOO_LARGE,
        problem(
            "The body is larger than `hotrank.web.max-body-size` (`body-too-large`); the"
                + " connection is closed."));
    components.addResponses(
        TOO_MANY,
        problem("Over the route group's rate limit (`rate-limited`).")
            .addHeaderObject("Retry-After", retryAfter)
            .addHeaderObject(
                "RateLimit-Policy",
                new Header()
                    .description("The policy applied, e.g. `\"reads\";q=100;w=1`")
                    .schema(new StringSchema()))
            .addHeaderObject(
                "RateLimit",
                new Header()
                    .description("What is left of it, e.g. `\"reads\";r=0;t=1`")
                    .schema(new StringSchema())));
    components.addResponses(
        UNAVAILABLE,
        problem(
                "A storage layer did not answer, the service is shutting down or overloaded"
                    + " (`storage-unavailable`, `ingest-overloaded`, …). Safe to retry after"
                    + " `Retry-After`.")
            .addHeaderObject("Retry-After", retryAfter));
    declareIdempotencyAnswers(components, retryAfter);
  }

  private static void declareIdempotencyAnswers(Components components, Header retryAfter) {
    components.addResponses(
        KEY_IN_FLIGHT,
        problem(
                "The first request with this `Idempotency-Key` is still running"
                    + " (`idempotency-key-in-flight`); nothing ran. Retry after `Retry-After`.")
            .addHeaderObject("Retry-After", retryAfter));
    components.addResponses(
        KEY_REUSED,
        problem(
            "This `Idempotency-Key` was sent before with another method, path or body"
                + " (`idempotency-key-reused`); nothing ran."));
  }

  private static ApiResponse problem(String description) {
    return new ApiResponse()
        .description(description)
        .content(
            new Content()
                .addMediaType(
                    ProblemRenderer.MEDIA_TYPE,
                    new MediaType()
                        .schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM))));
  }

  /** What {@link ProblemRenderer#json} writes. */
  private static Schema<?> problemSchema() {
    return new ObjectSchema()
        .description("An RFC 9457 problem, the body of every error answer")
        .addProperty(
            "type",
            new StringSchema()
                .format("uri")
                .description("Identifies the problem, e.g. `https://hotrank.io/problems/...`"))
        .addProperty("title", new StringSchema().description("The problem type's summary"))
        .addProperty("status", new IntegerSchema().description("The HTTP status"))
        .addProperty(
            "detail", new StringSchema().description("What happened this time, for a person"))
        .addProperty(
            "instance", new StringSchema().description("The request path the problem occurred on"))
        .addProperty(
            "errors",
            new ArraySchema()
                .items(new Schema<>().$ref("#/components/schemas/" + FIELD_VIOLATION))
                .description("The offending fields; only on invalid requests"))
        .required(List.of("type", "title", "status", "detail", "instance"));
  }

  private static Schema<?> fieldViolationSchema() {
    return new ObjectSchema()
        .description("One reason a request was refused")
        .addProperty(
            "field",
            new StringSchema()
                .description("The JSON path of the field (`events[3].type`) or the parameter"))
        .addProperty("message", new StringSchema().description("What is wrong with it"))
        .required(List.of("field", "message"));
  }
}
