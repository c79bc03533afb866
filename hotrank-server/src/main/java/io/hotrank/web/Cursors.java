package io.hotrank.web;

import io.hotrank.core.cursor.CursorCodec;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.storage.SqlDialect;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Signs and checks the cursors of every paged list (feeds, follow lists, hot boards). The key is
 * {@code hotrank.cursor-secret}, or else one the first instance generated and stored in {@code
 * hr_secret}, which every instance reads at start: a cursor one instance wrote is good on all. A
 * cursor that does not check out is a 400 naming {@code cursor}.
 */
@Component
public class Cursors {

  private static final String SECRET_NAME = "cursor-key";

  private final CursorCodec codec;

  Cursors(
      @Value("${hotrank.cursor-secret:}") String secret, JdbcTemplate jdbc, SqlDialect dialect) {
    if (!secret.isEmpty() && secret.length() < 16) {
      throw new IllegalArgumentException("hotrank.cursor-secret needs at least 16 characters");
    }
    byte[] key =
        secret.isEmpty() ? storedKey(jdbc, dialect) : secret.getBytes(StandardCharsets.UTF_8);
    this.codec = new CursorCodec(key);
  }

  private static byte[] storedKey(JdbcTemplate jdbc, SqlDialect dialect) {
    byte[] fresh = new byte[32];
    new SecureRandom().nextBytes(fresh);
    // The first instance's key stays; every later one reads it.
    dialect.insertIgnoringDuplicate(jdbc, "hr_secret", "name, secret", SECRET_NAME, fresh);
    return jdbc.queryForObject(
        "SELECT secret FROM hr_secret WHERE name = ?", byte[].class, SECRET_NAME);
  }

  /** A signed cursor of {@code kind} carrying {@code fields}. */
  public String encode(String kind, List<String> fields) {
    return codec.encode(kind, fields);
  }

  /**
   * The fields of {@code cursor}, or null when there is none (the first page).
   *
   * @param arity how many fields a cursor of this kind has
   * @throws InvalidRequestException naming {@code cursor} if it was not signed here for this kind
   */
  public @Nullable List<String> decode(String kind, @Nullable String cursor, int arity) {
    if (cursor == null) {
      return null;
    }
    return codec
        .decode(kind, cursor)
        .filter(fields -> fields.size() == arity)
        .orElseThrow(
            () ->
                new InvalidRequestException(
                    "cursor",
                    "is not a cursor this list gave out (altered, or from another list); start"
                        + " again without it"));
  }

  /** A long field of a decoded cursor; a cursor's fields were written by this server. */
  public static long longField(List<String> fields, int i) {
    return Long.parseLong(fields.get(i));
  }
}
