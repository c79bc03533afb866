package io.hotrank.web;

import io.hotrank.problem.Problem;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders a {@link Problem} as an RFC 9457 {@code application/problem+json} document. Every HTTP
 * edge of hotrank (the servlet path through {@code ProblemHandler}, the Netty read port) answers
 * with these bytes, so a client sees the same document whichever port it called. Thread-safe.
 */
public final class ProblemRenderer {

  /** The media type of every problem answer. */
  public static final String MEDIA_TYPE = "application/problem+json";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private ProblemRenderer() {}

  /**
   * The problem document: {@code detail}, {@code instance}, {@code status}, {@code title}, {@code
   * type} and, for invalid requests, {@code errors}.
   *
   * @param instance the request path the problem occurred on
   */
  public static byte[] json(Problem problem, String instance) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("detail", problem.detail());
    doc.put("instance", instance);
    doc.put("status", problem.type().status());
    doc.put("title", problem.type().title());
    doc.put("type", problem.type().type());
    if (!problem.errors().isEmpty()) {
      doc.put("errors", problem.errors());
    }
    return JSON.writeValueAsBytes(doc);
  }

  /**
   * Answers a servlet request with the problem: its status, its headers and the document. For the
   * filters that answer before Spring MVC's problem handler could (body limit, rate limits, admin
   * guard).
   *
   * @param instance the request path the problem occurred on
   */
  public static void write(HttpServletResponse response, Problem problem, String instance)
      throws IOException {
    response.setStatus(problem.type().status());
    response.setContentType(MEDIA_TYPE);
    problem.headers().forEach(response::setHeader);
    response.getOutputStream().write(json(problem, instance));
  }
}
