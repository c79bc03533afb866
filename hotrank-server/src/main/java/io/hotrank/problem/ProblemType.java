package io.hotrank.problem;

/**
 * The kind of an RFC 9457 problem: its HTTP status, the stable slug of its {@code type} URI and its
 * short human title. One constant per kind, declared next to the exception that raises it.
 *
 * @param status the HTTP status code
 * @param slug the last segment of the type URI, {@code https://hotrank.io/problems/<slug>}
 * @param title a short summary that does not change between occurrences
 */
public record ProblemType(int status, String slug, String title) {

  /** The base of every problem type URI. */
  public static final String TYPE_BASE = "https://hotrank.io/problems/";

  /** A request field or parameter is invalid. */
  public static final ProblemType INVALID_REQUEST =
      new ProblemType(400, "invalid-request", "Invalid request");

  /** Nothing is served at this path (the read port's answer to other paths). */
  public static final ProblemType NOT_FOUND = new ProblemType(404, "not-found", "Not found");

  /** A storage layer (database or Redis) failed or is exhausted; retry later. */
  public static final ProblemType STORAGE_UNAVAILABLE =
      new ProblemType(503, "storage-unavailable", "Storage unavailable");

  /** A failure the server did not expect; details are in its log, never in the answer. */
  public static final ProblemType INTERNAL = new ProblemType(500, "internal", "Internal error");

  /** The full type URI. */
  public String type() {
    return TYPE_BASE + slug;
  }
}
