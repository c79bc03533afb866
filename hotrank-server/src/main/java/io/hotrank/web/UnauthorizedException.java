package io.hotrank.web;

import io.hotrank.HotrankException;

/** An admin endpoint was called without the admin bearer token. Answered 401. */
public final class UnauthorizedException extends HotrankException {

  public UnauthorizedException(String message) {
    super(message);
  }
}
