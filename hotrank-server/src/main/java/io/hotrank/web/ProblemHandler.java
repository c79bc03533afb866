package io.hotrank.web;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import io.hotrank.time.Ticker;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionTimedOutException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.MismatchedInputException;

/**
 * The servlet path's one exception handler: a {@link HotrankException} answers the problem it
 * describes; a storage failure (the database or Redis failed, a connection or a transaction could
 * not be had, Redis full) answers 503 with {@code Retry-After}; Spring's own refusals (malformed
 * JSON, a wrong parameter type, an unsupported method) answer in the same format; a body cut off at
 * {@code hotrank.web.max-body-size}, whatever reader wrapped the cut, answers 413; anything else is
 * logged and answers a 500 problem, never Spring's bare error page. Every answer is rendered by
 * {@link ProblemRenderer}.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

  private final RedisFull redisFull;

  ProblemHandler(Ticker ticker) {
    this.redisFull = new RedisFull(ticker);
  }

  @ExceptionHandler(HotrankException.class)
  ResponseEntity<byte[]> hotrank(HotrankException e, HttpServletRequest request) {
    if (e.type().status() == ProblemType.INTERNAL.status()) {
      log.error("Request to {} failed", request.getRequestURI(), e);
    }
    return answer(e.problem(), request.getRequestURI());
  }

  /**
   * The database or Redis failed or is out of resources: a connection refused or lost, a pool
   * exhausted ({@code CannotGetJdbcConnectionException}), a transaction that could not start
   * ({@code CannotCreateTransactionException}), a timeout, a deadlock that outlived its retries.
   * Retryable, not the client's fault. Other storage exceptions (bad SQL, a broken constraint) are
   * bugs and answer 500 through {@link #unexpected}.
   */
  @ExceptionHandler({
    TransientDataAccessException.class,
    DataAccessResourceFailureException.class,
    RecoverableDataAccessException.class,
    CannotCreateTransactionException.class,
    TransactionTimedOutException.class
  })
  ResponseEntity<byte[]> storageUnavailable(RuntimeException e, HttpServletRequest request) {
    log.warn("Storage failed while serving {}: {}", request.getRequestURI(), e.toString());
    return answer(Problem.storageUnavailable(), request.getRequestURI());
  }

  /**
   * Anything else: a 500, logged with its stack trace; except Redis refusing a write because it is
   * full (over its maxmemory), which is a storage failure: 503 with {@code Retry-After} and a WARN
   * naming the setting, at most once a minute ({@link RedisFull}).
   */
  @ExceptionHandler(Exception.class)
  ResponseEntity<byte[]> unexpected(Exception e, HttpServletRequest request) {
    BodyTooLargeException tooLarge = BodyTooLargeException.in(e);
    if (tooLarge != null) {
      return answer(tooLarge.problem(), request.getRequestURI());
    }
    if (RedisFull.causedBy(e)) {
      redisFull.warn(request.getRequestURI());
      return answer(Problem.storageUnavailable(), request.getRequestURI());
    }
    log.error("Request to {} failed", request.getRequestURI(), e);
    return answer(Problem.internal(), request.getRequestURI());
  }

  /**
   * Malformed JSON, or a value of the wrong JSON type: name the field where Jackson can, and say
   * what a timestamp must look like when an instant could not be read.
   */
  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    // The body limit cut the body off while the converter read it.
    BodyTooLargeException tooLarge = BodyTooLargeException.in(e);
    if (tooLarge != null) {
      return widen(answer(tooLarge.problem(), path(request)));
    }
    String field = "body";
    String message = "is not valid JSON";
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof JacksonException jackson) {
        String path = jsonPath(jackson.getPath());
        if (!path.isEmpty()) {
          field = path;
          message =
              jackson instanceof MismatchedInputException mismatch
                      && mismatch.getTargetType() == Instant.class
                  ? "must be an RFC 3339 timestamp such as 2026-12-01T10:00:00Z"
                  : "has the wrong type or format";
        }
        break;
      }
    }
    return widen(answer(Problem.invalid(field, message), path(request)));
  }

  @Override
  protected ResponseEntity<Object> handleTypeMismatch(
      TypeMismatchException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    String field =
        e instanceof MethodArgumentTypeMismatchException m ? m.getName() : e.getPropertyName();
    String message =
        "must be "
            + (e.getRequiredType() == null
                ? "a valid value"
                : "an " + e.getRequiredType().getSimpleName().toLowerCase(Locale.ROOT));
    return widen(answer(Problem.invalid(String.valueOf(field), message), path(request)));
  }

  /**
   * Spring MVC's other refusals (405, 406, 415, a missing parameter...): the same status and
   * headers, rendered like every other problem, typed by the status's reason phrase.
   */
  @Override
  protected ResponseEntity<Object> handleExceptionInternal(
      Exception e,
      @Nullable Object body,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    if (request instanceof ServletWebRequest servlet
        && servlet.getResponse() != null
        && servlet.getResponse().isCommitted()) {
      return null; // too late to answer anything; as Spring's own handler does
    }
    String detail = null;
    if (body instanceof ProblemDetail problem) {
      detail = problem.getDetail();
    } else if (e instanceof ErrorResponse response) {
      detail =
          response
              .updateAndGetBody(getMessageSource(), LocaleContextHolder.getLocale())
              .getDetail();
    }
    ProblemType type = typeOf(status);
    Problem problem = Problem.of(type, detail == null ? type.title() : detail);
    for (var header : headers.headerSet()) {
      problem = problem.withHeader(header.getKey(), String.join(", ", header.getValue()));
    }
    return widen(answer(problem, path(request)));
  }

  /** The problem type of a framework refusal: hotrank's own where one exists, else its reason. */
  private static ProblemType typeOf(HttpStatusCode status) {
    if (status.value() == ProblemType.NOT_FOUND.status()) {
      return ProblemType.NOT_FOUND;
    }
    HttpStatus known = HttpStatus.resolve(status.value());
    String title = known == null ? "Error " + status.value() : known.getReasonPhrase();
    String slug = title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    return new ProblemType(
        status.value(), slug, title.charAt(0) + title.substring(1).toLowerCase(Locale.ROOT));
  }

  private static ResponseEntity<byte[]> answer(Problem problem, String instance) {
    ResponseEntity.BodyBuilder answer =
        ResponseEntity.status(problem.type().status())
            .header(HttpHeaders.CONTENT_TYPE, ProblemRenderer.MEDIA_TYPE);
    problem.headers().forEach(answer::header);
    return answer.body(ProblemRenderer.json(problem, instance));
  }

  private static String path(WebRequest request) {
    return request instanceof ServletWebRequest servlet
        ? servlet.getRequest().getRequestURI()
        : request.getDescription(false).replaceFirst("^uri=", "");
  }

  @SuppressWarnings("unchecked")
  private static ResponseEntity<Object> widen(ResponseEntity<byte[]> response) {
    return (ResponseEntity<Object>) (ResponseEntity<?>) response;
  }

  private static String jsonPath(List<JacksonException.Reference> path) {
    StringBuilder field = new StringBuilder();
    for (JacksonException.Reference ref : path) {
      if (ref.getPropertyName() != null) {
        if (!field.isEmpty()) {
          field.append('.');
        }
        field.append(ref.getPropertyName());
      } else if (ref.getIndex() >= 0) {
        field.append('[').append(ref.getIndex()).append(']');
      }
    }
    return field.toString();
  }
}
