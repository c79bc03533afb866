package io.hotrank.problem;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One RFC 9457 problem, ready to render: what {@link HotrankException#problem()} describes, or what
 * the HTTP edge builds for a failure that is not hotrank's own (a storage exception, malformed
 * JSON). Immutable.
 *
 * @param type status, type slug and title
 * @param detail what happened in this occurrence, for a person
 * @param errors the offending fields, empty unless the request was invalid
 * @param headers extra response headers, such as {@code Retry-After}
 */
public record Problem(
    ProblemType type, String detail, List<FieldViolation> errors, Map<String, String> headers) {

  /** How long a client is asked to wait after a storage failure or during shutdown. */
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(5);

  public Problem {
    errors = List.copyOf(errors);
    headers = Map.copyOf(headers);
  }

  /** A problem with no field errors and no extra headers. */
  public static Problem of(ProblemType type, String detail) {
    return new Problem(type, detail, List.of(), Map.of());
  }

  /** A 400 naming one field. */
  public static Problem invalid(String field, String message) {
    return new Problem(
        ProblemType.INVALID_REQUEST,
        field + " " + message,
        List.of(new FieldViolation(field, message)),
        Map.of());
  }

  /** A storage layer failed: 503 with Retry-After, never the storage's own message. */
  public static Problem storageUnavailable() {
    return Problem.of(ProblemType.STORAGE_UNAVAILABLE, "A storage layer did not answer; try again")
        .withRetryAfter(DEFAULT_RETRY_AFTER);
  }

  /** The answer to a failure nobody anticipated; the cause belongs in the log only. */
  public static Problem internal() {
    return Problem.of(ProblemType.INTERNAL, "The server failed; see its log");
  }

  /** This problem with one more response header. */
  public Problem withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new Problem(type, detail, errors, more);
  }

  /** This problem with {@code Retry-After} in whole seconds, at least one. */
  public Problem withRetryAfter(Duration after) {
    return withHeader("Retry-After", Long.toString(Math.max(1, after.toSeconds())));
  }
}
