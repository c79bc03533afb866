package io.hotrank.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The operators who may call the admin endpoints and sign in to the console, each known by a bearer
 * token: the operator {@code admin} (role {@code admin}) whose token is {@code hotrank.admin.token}
 * or the generated token file, and each of {@code hotrank.admin.operators}. Thread-safe
 * (immutable).
 *
 * <p>Only the SHA-256 digest of each token is kept. A presented token is digested and compared with
 * every operator's digest by {@link MessageDigest#isEqual} (constant time for equal lengths),
 * without stopping at a match: the time taken tells neither the token's length nor which operator,
 * if any, matched. A configured {@code token-sha256} is compared the same way. Tokens are never
 * logged, and no message of this class repeats one.
 */
public final class Operators {

  /** The name of the operator whose token is {@code hotrank.admin.token}. */
  public static final String ADMIN = "admin";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

  private record Known(Operator operator, byte[] digest) {}

  private final List<Known> known;

  private Operators(List<Known> known) {
    this.known = List.copyOf(known);
  }

  /**
   * The operators of the configuration, validated.
   *
   * @param adminToken the token of the operator {@code admin} (its digest)
   * @param settings {@code hotrank.admin.operators}, possibly empty
   * @throws IllegalStateException naming the property when a setting is missing, malformed or a
   *     duplicate (of a name, or of a token, which would make the actor ambiguous)
   */
  static Operators of(AdminToken adminToken, List<AdminProperties.OperatorSetting> settings) {
    List<Known> known = new ArrayList<>();
    known.add(new Known(new Operator(ADMIN, Role.ADMIN), adminToken.digest()));
    for (int i = 0; i < settings.size(); i++) {
      AdminProperties.OperatorSetting setting = settings.get(i);
      String prefix = "hotrank.admin.operators[" + i + "]";
      String name = setting.name() == null ? "" : setting.name().strip();
      if (!NAME.matcher(name).matches()) {
        throw invalid(prefix + ".name", "must match [A-Za-z0-9_.-]{1,64}, was '" + name + "'");
      }
      for (Known other : known) {
        if (other.operator().name().equals(name)) {
          throw invalid(
              prefix + ".name",
              "'"
                  + name
                  + "' is taken"
                  + (name.equals(ADMIN) ? " by hotrank.admin.token" : " by an earlier operator"));
        }
      }
      Known operator =
          new Known(new Operator(name, role(prefix, setting.role())), digest(prefix, setting));
      for (Known other : known) {
        if (MessageDigest.isEqual(other.digest(), operator.digest())) {
          throw invalid(
              prefix,
              "operator '"
                  + name
                  + "' has the same token as operator '"
                  + other.operator().name()
                  + "'; every operator needs a token of its own");
        }
      }
      known.add(operator);
    }
    return new Operators(known);
  }

  private static Role role(String prefix, @Nullable String role) {
    String text = role == null ? "" : role.strip().toLowerCase(Locale.ROOT);
    for (Role r : Role.values()) {
      if (r.configName().equals(text)) {
        return r;
      }
    }
    throw invalid(prefix + ".role", "must be viewer, operator or admin, was '" + text + "'");
  }

  private static byte[] digest(String prefix, AdminProperties.OperatorSetting setting) {
    boolean hasToken = setting.token() != null && !setting.token().isBlank();
    boolean hasDigest = setting.tokenSha256() != null && !setting.tokenSha256().isBlank();
    if (hasToken == hasDigest) {
      throw invalid(
          prefix + ".token",
          hasToken
              ? "and .token-sha256 are both set; set exactly one"
              : "or .token-sha256 is required");
    }
    if (hasToken) {
      return sha256(setting.token().strip());
    }
    String hex = setting.tokenSha256().strip();
    if (!SHA256_HEX.matcher(hex).matches()) {
      throw invalid(prefix + ".token-sha256", "must be 64 hexadecimal digits (a SHA-256)");
    }
    return HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
  }

  private static IllegalStateException invalid(String property, String message) {
    return new IllegalStateException(property + " " + message);
  }

  static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /**
   * The operator a bearer token (without the {@code Bearer } prefix) names, if any; compared in
   * constant time against every operator.
   */
  public Optional<Operator> authenticate(@Nullable String token) {
    if (token == null || token.isBlank()) {
      return Optional.empty();
    }
    return withDigest(sha256(token.strip()));
  }

  /**
   * The operator an {@code Authorization} header names ({@code Bearer <token>}, the scheme in any
   * case), if any.
   */
  public Optional<Operator> authenticateHeader(@Nullable String header) {
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    return authenticate(header.substring(7));
  }

  /**
   * The operator whose token has this SHA-256, if any; compared in constant time against every
   * operator, as {@link #authenticate} does. For checks at start, such as an ingest key that must
   * not be an operator's token.
   */
  Optional<Operator> withDigest(byte[] digest) {
    Operator matched = null;
    for (Known operator : known) {
      if (MessageDigest.isEqual(digest, operator.digest()) && matched == null) {
        matched = operator.operator();
      }
    }
    return Optional.ofNullable(matched);
  }

  /** The configured operators' names and roles (no token), {@code admin} first. */
  public List<Operator> all() {
    return known.stream().map(Known::operator).toList();
  }

  /**
   * The operator configured under this name, if any. The console's session names its operator and
   * looks it up here on every request, so an operator removed from the configuration loses access
   * at once and a changed role applies at once.
   */
  public Optional<Operator> named(String name) {
    return all().stream().filter(operator -> operator.name().equals(name)).findFirst();
  }
}
