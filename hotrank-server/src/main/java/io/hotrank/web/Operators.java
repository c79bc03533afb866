package io.hotrank.web;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The operators who may call the admin endpoints and sign in to the console, each known by a bearer
 * token. Tokens are compared in constant time and never logged. Thread-safe.
 */
public final class Operators {

  private final AdminToken admin;

  Operators(AdminToken admin) {
    this.admin = admin;
  }

  /** The operator a bearer token (without the {@code Bearer } prefix) names, if any. */
  public Optional<Operator> authenticate(@Nullable String token) {
    if (token != null && admin.matchesAuthorizationHeader("Bearer " + token)) {
      return Optional.of(new Operator("admin", Role.ADMIN));
    }
    return Optional.empty();
  }

  /**
   * The operator configured under this name, if any. The console's session names its operator and
   * looks it up here on every request, so an operator removed from the configuration loses access
   * at once and a changed role applies at once.
   */
  public Optional<Operator> named(String name) {
    return "admin".equals(name) ? Optional.of(new Operator("admin", Role.ADMIN)) : Optional.empty();
  }
}
