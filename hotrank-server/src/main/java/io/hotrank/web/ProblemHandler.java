package io.hotrank.web;

import io.hotrank.HotrankException;
import io.hotrank.board.BoardNotFoundException;
import io.hotrank.board.BoardUnavailableException;
import io.hotrank.board.ComputationAbandonedException;
import io.hotrank.item.ItemExistsException;
import io.hotrank.item.ItemNotFoundException;
import java.net.URI;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;

/**
 * The one place where exceptions become RFC 9457 problem responses. Each problem has a stable
 * {@code type}, and validation problems list the offending fields in {@code errors[]}.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);
  private static final String TYPE_BASE = "https://hotrank.io/problems/";

  @ExceptionHandler(InvalidRequestException.class)
  ResponseEntity<ProblemDetail> invalid(InvalidRequestException e) {
    return problem(
        HttpStatus.BAD_REQUEST,
        "invalid-request",
        "Invalid request",
        e.getMessage(),
        e.violations());
  }

  @ExceptionHandler(ItemNotFoundException.class)
  ResponseEntity<ProblemDetail> itemNotFound(ItemNotFoundException e) {
    List<FieldViolation> errors =
        e.field() == null ? List.of() : List.of(new FieldViolation(e.field(), "no such item"));
    return problem(
        HttpStatus.NOT_FOUND, "item-not-found", "Item not found", e.getMessage(), errors);
  }

  @ExceptionHandler(ItemExistsException.class)
  ResponseEntity<ProblemDetail> itemExists(ItemExistsException e) {
    return problem(
        HttpStatus.CONFLICT,
        "item-exists",
        "Item exists",
        e.getMessage(),
        List.of(new FieldViolation("id", "already taken")));
  }

  @ExceptionHandler(BoardNotFoundException.class)
  ResponseEntity<ProblemDetail> boardNotFound(BoardNotFoundException e) {
    return problem(
        HttpStatus.NOT_FOUND, "board-not-found", "Board not found", e.getMessage(), List.of());
  }

  @ExceptionHandler(BoardUnavailableException.class)
  ResponseEntity<ProblemDetail> boardUnavailable(BoardUnavailableException e) {
    return withHeader(
        problem(
            HttpStatus.SERVICE_UNAVAILABLE,
            "board-unavailable",
            "Board unavailable",
            e.getMessage(),
            List.of()),
        HttpHeaders.RETRY_AFTER,
        Long.toString(Math.max(1, e.retryAfter().toSeconds())));
  }

  @ExceptionHandler(UnauthorizedException.class)
  ResponseEntity<ProblemDetail> unauthorized(UnauthorizedException e) {
    return withHeader(
        problem(HttpStatus.UNAUTHORIZED, "unauthorized", "Unauthorized", e.getMessage(), List.of()),
        HttpHeaders.WWW_AUTHENTICATE,
        "Bearer realm=\"hotrank-admin\"");
  }

  @ExceptionHandler(ComputationAbandonedException.class)
  ResponseEntity<ProblemDetail> abandoned(ComputationAbandonedException e) {
    return withHeader(
        problem(
            HttpStatus.SERVICE_UNAVAILABLE,
            "shutting-down",
            "Shutting down",
            e.getMessage(),
            List.of()),
        HttpHeaders.RETRY_AFTER,
        "5");
  }

  /** The database (or Redis, on a write) failed: retryable, not the client's fault. */
  @ExceptionHandler(DataAccessException.class)
  ResponseEntity<ProblemDetail> storageUnavailable(DataAccessException e) {
    log.warn("Storage failed while serving a request: {}", e.toString());
    return withHeader(
        problem(
            HttpStatus.SERVICE_UNAVAILABLE,
            "storage-unavailable",
            "Storage unavailable",
            "A storage layer did not answer; try again",
            List.of()),
        HttpHeaders.RETRY_AFTER,
        "5");
  }

  @ExceptionHandler(HotrankException.class)
  ResponseEntity<ProblemDetail> unexpected(HotrankException e) {
    log.error("Unmapped hotrank exception", e);
    return problem(
        HttpStatus.INTERNAL_SERVER_ERROR,
        "internal",
        "Internal error",
        "The server failed; see its log",
        List.of());
  }

  /** Malformed JSON, or a value of the wrong JSON type: name the field where Jackson can. */
  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    String field = "body";
    String message = "is not valid JSON";
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof JacksonException jackson) {
        String path = jsonPath(jackson.getPath());
        if (!path.isEmpty()) {
          field = path;
          message = "has the wrong type or format";
        }
        break;
      }
    }
    return invalidField(field, message);
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
                : "an " + e.getRequiredType().getSimpleName().toLowerCase());
    return invalidField(field, message);
  }

  private static ResponseEntity<Object> invalidField(String field, String message) {
    return widen(
        problem(
            HttpStatus.BAD_REQUEST,
            "invalid-request",
            "Invalid request",
            field + " " + message,
            List.of(new FieldViolation(field, message))));
  }

  static ResponseEntity<ProblemDetail> problem(
      HttpStatus status, String slug, String title, String detail, List<FieldViolation> errors) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
    problem.setType(URI.create(TYPE_BASE + slug));
    problem.setTitle(title);
    if (!errors.isEmpty()) {
      problem.setProperty("errors", errors);
    }
    return ResponseEntity.status(status)
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(problem);
  }

  private static ResponseEntity<ProblemDetail> withHeader(
      ResponseEntity<ProblemDetail> response, String name, String value) {
    return ResponseEntity.status(response.getStatusCode())
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .header(name, value)
        .body(response.getBody());
  }

  @SuppressWarnings("unchecked")
  private static ResponseEntity<Object> widen(ResponseEntity<ProblemDetail> response) {
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
