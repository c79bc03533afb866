package io.hotrank.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.web.AdminProperties.OperatorSetting;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operators' configuration is checked at start with messages naming the property, and a token
 * authenticates as the one operator it belongs to, whether configured as the token or its hash.
 */
class OperatorsTest {

  private static OperatorSetting op(String name, String token, String sha, String role) {
    return new OperatorSetting(name, token, sha, role);
  }

  private static void assertRefused(String message, OperatorSetting... settings) {
    assertThatThrownBy(() -> Operators.of(AdminToken.of("admin-token"), List.of(settings)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(message)
        .hasMessageNotContaining("secret-1")
        .hasMessageNotContaining("admin-token");
  }

  @Test
  void tokensAndHashes_authenticateTheirOperator() {
    String hash = HexFormat.of().formatHex(Operators.sha256("secret-2")).toUpperCase();
    Operators operators =
        Operators.of(
            AdminToken.of("admin-token"),
            List.of(op("vera", "secret-1", null, "viewer"), op("otto", null, hash, "Operator")));
    assertThat(operators.authenticate("secret-1")).contains(new Operator("vera", Role.VIEWER));
    assertThat(operators.authenticate(" secret-2 ")).contains(new Operator("otto", Role.OPERATOR));
    assertThat(operators.authenticate("admin-token")).contains(new Operator("admin", Role.ADMIN));
    assertThat(operators.authenticateHeader("bearer secret-1")).isPresent();
    assertThat(operators.authenticate("secret-")).isEmpty();
    assertThat(operators.authenticate(hash)).as("the hash is no token").isEmpty();
    assertThat(operators.authenticate("")).isEmpty();
    assertThat(operators.authenticate(null)).isEmpty();
    assertThat(operators.authenticateHeader("Basic secret-1")).isEmpty();
  }

  @Test
  void badSettings_areRefusedNamingTheProperty() {
    assertRefused(
        "hotrank.admin.operators[0].name must match", op("bad name", "secret-1", null, "viewer"));
    assertRefused(
        "hotrank.admin.operators[0].name must match", op(null, "secret-1", null, "viewer"));
    assertRefused(
        "hotrank.admin.operators[0].name 'admin' is taken by hotrank.admin.token",
        op("admin", "secret-1", null, "viewer"));
    assertRefused(
        "hotrank.admin.operators[1].name 'a' is taken",
        op("a", "secret-1", null, "viewer"),
        op("a", "secret-2", null, "viewer"));
    assertRefused(
        "hotrank.admin.operators[1] operator 'b' has the same token as operator 'a'",
        op("a", "secret-1", null, "viewer"),
        op("b", "secret-1", null, "admin"));
    assertRefused(
        "hotrank.admin.operators[0] operator 'a' has the same token as operator 'admin'",
        op("a", "admin-token", null, "viewer"));
    assertRefused(
        "hotrank.admin.operators[0].token or .token-sha256 is required",
        op("a", null, null, "viewer"));
    assertRefused(
        "hotrank.admin.operators[0].token and .token-sha256 are both set",
        op("a", "secret-1", "ab".repeat(32), "viewer"));
    assertRefused(
        "hotrank.admin.operators[0].token-sha256 must be 64 hexadecimal digits",
        op("a", null, "xyz", "viewer"));
    assertRefused(
        "hotrank.admin.operators[0].role must be viewer, operator or admin",
        op("a", "secret-1", null, "root"));
    assertRefused(
        "hotrank.admin.operators[0].role must be viewer, operator or admin",
        op("a", "secret-1", null, null));
  }
}
