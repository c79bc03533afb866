package io.hotrank.web;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The admin endpoints' credentials, under {@code hotrank.admin.*}.
 *
 * @param token the bearer token of the operator named {@code admin} (role {@code admin}); when
 *     blank, one is generated once and stored in {@code <hotrank.data-dir>/admin-token}, readable
 *     by its owner only; the log names that file, never the token
 * @param operators further named operators, each with a token (or its SHA-256) and a role
 */
@ConfigurationProperties("hotrank.admin")
record AdminProperties(@DefaultValue("") String token, @Nullable List<OperatorSetting> operators) {

  /**
   * One named operator, {@code hotrank.admin.operators[i].*}.
   *
   * @param name how the operator is known in the audit log: {@code [A-Za-z0-9_.-]{1,64}}
   * @param token the bearer token; exactly one of this and {@code tokenSha256}
   * @param tokenSha256 the token's SHA-256 as 64 hex digits, so that the configuration need not
   *     hold the token itself
   * @param role {@code viewer}, {@code operator} or {@code admin}
   */
  record OperatorSetting(
      @Nullable String name,
      @Nullable String token,
      @Nullable String tokenSha256,
      @Nullable String role) {}
}
