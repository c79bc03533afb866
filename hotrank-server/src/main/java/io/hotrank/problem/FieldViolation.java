package io.hotrank.problem;

/**
 * One reason a request was refused, naming the offending field by its JSON path (for example {@code
 * events[3].type}) or query parameter. Rendered in the {@code errors[]} member of a problem
 * response.
 */
public record FieldViolation(String field, String message) {}
