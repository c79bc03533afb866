package io.hotrank.web;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The operator an admin request was authenticated as: a controller declares an {@code Operator}
 * parameter to receive it (the audit's {@code actor} is its {@link #name}). Immutable.
 *
 * @param name the operator's configured name
 * @param role what the operator may do
 */
public record Operator(String name, Role role) {

  /** The request attribute the admin guard stores the authenticated operator under. */
  public static final String ATTRIBUTE = Operator.class.getName();

  /**
   * The operator a request was authenticated as.
   *
   * @throws UnauthorizedException if the request was not authenticated as one
   */
  public static Operator of(HttpServletRequest request) {
    if (request.getAttribute(ATTRIBUTE) instanceof Operator operator) {
      return operator;
    }
    throw new UnauthorizedException("This endpoint needs 'Authorization: Bearer <token>'");
  }
}
