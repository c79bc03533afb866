package io.hotrank.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.web.AccessProperties.IngestKey;
import io.hotrank.web.AdminProperties.OperatorSetting;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What docs/security.md says of tokens in memory, held to the objects that authenticate: {@link
 * AdminToken}, {@link Operators} and {@link IngestKeyFilter} keep no token (as text or as its
 * bytes), only digests; and an ingest key that is an operator's token stops the start, the message
 * naming the property and the operator, never the token.
 */
class TokensInMemoryTest {

  private static final String ADMIN = "admin-secret-token";
  private static final String VIEWER = "viewer-secret-token";
  private static final String INGEST = "ingest-secret-key";

  /**
   * Regression (issue 24 review): {@code AdminToken} kept the token's bytes for a comparison of its
   * own, beside the operators' digests.
   */
  @Test
  void theAdminToken_keepsOnlyItsDigest(@TempDir Path dataDir) throws Exception {
    assertThat(held(AdminToken.resolve(ADMIN, dataDir))).doesNotContain(ADMIN);
    AdminToken generated = AdminToken.resolve("", dataDir);
    String stored = Files.readString(dataDir.resolve("admin-token")).strip();
    assertThat(held(generated)).doesNotContain(stored);
    assertThat(held(AdminToken.resolve("", dataDir))).doesNotContain(stored);
  }

  @Test
  void operatorsAndIngestKeys_keepNoToken() throws Exception {
    Operators operators =
        Operators.of(
            AdminToken.of(ADMIN), List.of(new OperatorSetting("vera", VIEWER, null, "viewer")));
    IngestKeyFilter filter = IngestKeyFilter.of(List.of(new IngestKey("app", INGEST)), operators);
    assertThat(held(operators)).doesNotContain(ADMIN, VIEWER);
    assertThat(held(filter)).doesNotContain(INGEST);
    assertThat(operators.authenticate(VIEWER)).contains(new Operator("vera", Role.VIEWER));
  }

  /** Regression (issue 24 review): an ingest key could repeat an operator's token. */
  @Test
  void anIngestKey_thatIsAnOperatorsToken_isRefused_namingThePropertyNotTheToken() {
    String hash = java.util.HexFormat.of().formatHex(Operators.sha256("hashed-secret"));
    Operators operators =
        Operators.of(
            AdminToken.of(ADMIN),
            List.of(
                new OperatorSetting("vera", VIEWER, null, "viewer"),
                new OperatorSetting("otto", null, hash, "operator")));
    for (Map.Entry<String, String> clash :
        Map.of(ADMIN, "admin", " " + VIEWER + " ", "vera", "hashed-secret", "otto").entrySet()) {
      List<IngestKey> keys =
          List.of(new IngestKey("ok", INGEST), new IngestKey("bad", clash.getKey()));
      assertThatThrownBy(() -> IngestKeyFilter.of(keys, operators))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "hotrank.access.ingest-keys[1].token is the token of operator '"
                  + clash.getValue()
                  + "'; an ingest key must differ from every operator's token")
          .hasMessageNotContaining(clash.getKey().strip())
          .hasMessageNotContaining(hash);
    }
    assertThat(IngestKeyFilter.of(List.of(new IngestKey("ok", INGEST)), operators).required())
        .isTrue();
  }

  /**
   * Every string and byte array reachable from {@code root} through fields of hotrank's classes,
   * collections, maps and arrays, as text (byte arrays decoded as UTF-8).
   */
  private static List<String> held(Object root) throws IllegalAccessException {
    List<String> found = new ArrayList<>();
    walk(root, found, new IdentityHashMap<>());
    return found;
  }

  private static void walk(Object value, List<String> found, Map<Object, Boolean> seen)
      throws IllegalAccessException {
    if (value == null || seen.put(value, true) != null) {
      return;
    }
    switch (value) {
      case String text -> found.add(text);
      case byte[] bytes -> found.add(new String(bytes, StandardCharsets.UTF_8));
      case Object[] array -> {
        for (Object element : array) {
          walk(element, found, seen);
        }
      }
      case Collection<?> collection -> {
        for (Object element : collection) {
          walk(element, found, seen);
        }
      }
      case Map<?, ?> map -> {
        for (Map.Entry<?, ?> e : map.entrySet()) {
          walk(e.getKey(), found, seen);
          walk(e.getValue(), found, seen);
        }
      }
      default -> {
        if (!value.getClass().getName().startsWith("io.hotrank.")) {
          return;
        }
        for (Class<?> c = value.getClass();
            c != null && c.getName().startsWith("io.hotrank.");
            c = c.getSuperclass()) {
          for (Field field : c.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
              continue;
            }
            field.setAccessible(true);
            walk(field.get(value), found, seen);
          }
        }
      }
    }
  }

  @Test
  void theWalk_findsATokenWhereOneIsKept() throws Exception {
    record Kept(List<byte[]> tokens) {}
    assertThat(held(new Kept(List.of(ADMIN.getBytes(StandardCharsets.UTF_8)))))
        .as("a rule that finds nothing would pass whatever the code keeps")
        .contains(ADMIN);
    assertThat(held(new Kept(List.of()))).isEmpty();
  }
}
