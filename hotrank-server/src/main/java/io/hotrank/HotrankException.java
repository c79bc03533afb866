package io.hotrank;

/**
 * The root of every exception hotrank throws on purpose. Each subclass names the instance it refers
 * to (a board, an item) so that logs and problem responses say exactly what failed; the web layer
 * maps them to RFC 9457 problem responses in one place.
 */
public abstract class HotrankException extends RuntimeException {

  protected HotrankException(String message) {
    super(message);
  }

  protected HotrankException(String message, Throwable cause) {
    super(message, cause);
  }
}
