package io.hotrank.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer token that admin endpoints require. Taken from {@code hotrank.admin.token}; when that
 * is blank, a random token is generated once, stored in {@code <data-dir>/admin-token} and reused
 * on later starts. Thread-safe (immutable).
 */
public final class AdminToken {

  private static final Logger log = LoggerFactory.getLogger(AdminToken.class);

  private final byte[] token;

  private AdminToken(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  /** Resolves the token as described on the class; logs where it came from. */
  public static AdminToken resolve(String configured, Path dataDir) {
    if (!configured.isBlank()) {
      log.info("Admin token taken from hotrank.admin.token");
      return new AdminToken(configured.strip());
    }
    Path file = dataDir.resolve("admin-token");
    try {
      if (Files.exists(file)) {
        String stored = Files.readString(file).strip();
        log.info("Admin token read from {}: {}", file.toAbsolutePath(), stored);
        return new AdminToken(stored);
      }
      byte[] random = new byte[24];
      new SecureRandom().nextBytes(random);
      String generated = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
      Files.createDirectories(dataDir);
      Files.writeString(file, generated + "\n");
      log.info("Admin token generated and stored in {}: {}", file.toAbsolutePath(), generated);
      return new AdminToken(generated);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read or store the admin token at " + file, e);
    }
  }

  /** Whether an {@code Authorization} header value carries this token, in constant time. */
  public boolean matchesAuthorizationHeader(@Nullable String header) {
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] presented = header.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(presented, token);
  }
}
