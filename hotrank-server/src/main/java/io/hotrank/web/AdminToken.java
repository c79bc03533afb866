package io.hotrank.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer token that admin endpoints require. Taken from {@code hotrank.admin.token}; when that
 * is blank, a random token is generated once, stored in {@code <data-dir>/admin-token} and reused
 * on later starts. The token itself is never logged, only where it came from.
 *
 * <p>On a POSIX file system the stored token is readable by its owner only: the file is written
 * under a temporary name created with mode 0600 and renamed into place (never world-readable, never
 * seen half-written); a data directory created here is 0700; a token file found with wider
 * permissions is narrowed to 0600 with a warning. Elsewhere the platform's defaults apply.
 *
 * <p>Only the token's SHA-256 is kept, for {@link Operators}, which authenticates every request:
 * the text read or generated here is dropped once hashed (Java cannot wipe a {@code String}; it is
 * left to the garbage collector). Thread-safe (immutable).
 */
public final class AdminToken {

  private static final Logger log = LoggerFactory.getLogger(AdminToken.class);

  private static final Set<PosixFilePermission> OWNER_FILE =
      EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
  private static final Set<PosixFilePermission> OWNER_DIRECTORY =
      EnumSet.of(
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE);

  /** The token's SHA-256; the token itself is not kept (see the class comment). */
  private final byte[] digest;

  private AdminToken(String token) {
    this.digest = Operators.sha256(token);
  }

  /** The token of the operator {@code admin} as given, for tests. */
  static AdminToken of(String token) {
    return new AdminToken(token);
  }

  /** Resolves the token as described on the class; logs where it came from, never the token. */
  public static AdminToken resolve(String configured, Path dataDir) {
    if (!configured.isBlank()) {
      log.info("Admin token taken from hotrank.admin.token");
      return new AdminToken(configured.strip());
    }
    Path file = dataDir.resolve("admin-token").toAbsolutePath();
    try {
      if (Files.exists(file)) {
        restrictToOwner(file);
        String stored = Files.readString(file).strip();
        log.info("Admin token read from {}", file);
        return new AdminToken(stored);
      }
      byte[] random = new byte[24];
      new SecureRandom().nextBytes(random);
      String generated = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
      write(file, generated + "\n");
      log.info(
          "Admin token generated and stored in {} (readable by its owner only); admin requests"
              + " send 'Authorization: Bearer <the file's content>'",
          file);
      return new AdminToken(generated);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read or store the admin token at " + file, e);
    }
  }

  /**
   * Writes the token file atomically: a temporary file in the same directory, created 0600 on
   * POSIX, renamed over the target once complete.
   */
  private static void write(Path file, String content) throws IOException {
    Path dir = file.getParent();
    boolean posix = isPosix(dir.getFileSystem());
    if (!Files.isDirectory(dir)) {
      if (posix) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIRECTORY));
      } else {
        Files.createDirectories(dir);
      }
    }
    FileAttribute<?>[] attributes =
        posix
            ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FILE)}
            : new FileAttribute<?>[0];
    if (!posix) {
      log.debug("{} is not on a POSIX file system: its permissions are the platform's", file);
    }
    Path temporary = Files.createTempFile(dir, ".admin-token-", ".tmp", attributes);
    try {
      Files.writeString(temporary, content);
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** Narrows an existing token file to 0600 when group or others may read or write it. */
  private static void restrictToOwner(Path file) throws IOException {
    if (!isPosix(file.getFileSystem())) {
      log.debug("{} is not on a POSIX file system: its permissions are left alone", file);
      return;
    }
    Set<PosixFilePermission> current = Files.getPosixFilePermissions(file);
    if (!OWNER_FILE.containsAll(current)) {
      Files.setPosixFilePermissions(file, OWNER_FILE);
      log.warn(
          "Admin token file {} was {}; restricted to rw------- (owner only)",
          file,
          PosixFilePermissions.toString(current));
    }
  }

  private static boolean isPosix(FileSystem fileSystem) {
    return fileSystem.supportedFileAttributeViews().contains("posix");
  }

  /** The token's SHA-256, for {@link Operators}: a copy, since arrays are mutable. */
  byte[] digest() {
    return digest.clone();
  }
}
