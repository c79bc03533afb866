package io.hotrank.idempotency;

import io.hotrank.storage.SqlDialect;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Idempotency keys held as the filter holds them, for tests of writers outside this package that
 * record their answers in their own transaction (the event log's writer): claims, a retry's
 * takeover of a claim that outlived its lease, and what a key holds afterwards.
 */
public final class HeldKeys {

  private static final long LEASE_MILLIS = 60_000;

  private final IdempotencyStore store;
  private final JdbcTemplate jdbc;

  public HeldKeys(JdbcTemplate jdbc, SqlDialect dialect) {
    this.store = new IdempotencyStore(jdbc, dialect);
    this.jdbc = jdbc;
  }

  /** The store, as a writer records answers in it. */
  public IdempotentAnswers answers() {
    return store;
  }

  /** Claims a new key, its lease running from {@code leaseFrom} for 60 s. */
  public IdempotencyClaim claim(long leaseFrom) {
    byte[] id = new byte[32];
    ThreadLocalRandom.current().nextBytes(id);
    IdempotencyClaim claim =
        new IdempotencyClaim(HexFormat.of().formatHex(id), UUID.randomUUID().toString());
    if (!store.claim(claim.id(), "fp", claim.token(), leaseFrom, leaseFrom + LEASE_MILLIS)) {
      throw new IllegalStateException("a fresh key was taken");
    }
    return claim;
  }

  /** A retry's claim of the same key, taken over at {@code now} after the lease of {@code held}. */
  public IdempotencyClaim takeOver(IdempotencyClaim held, long now) {
    IdempotencyClaim retry = new IdempotencyClaim(held.id(), UUID.randomUUID().toString());
    if (!store.takeOver(held.id(), "fp", retry.token(), now, now + LEASE_MILLIS, 0)) {
      throw new IllegalStateException("the key's lease has not ended");
    }
    return retry;
  }

  /**
   * What the claim's key holds: {@code <status> <content type> <body>} when the claim holds it and
   * its answer was recorded, {@code pending} while the claim holds it without one, and {@code
   * taken} when another claim (a retry's) holds it.
   */
  public String answer(IdempotencyClaim claim) {
    IdempotencyStore.Row row = store.find(claim.id()).orElseThrow();
    if (!row.token().equals(claim.token())) {
      return "taken";
    }
    if (row.state() != IdempotencyStore.DONE) {
      return "pending";
    }
    KeptAnswer answer = row.answer();
    return answer.status() + " " + answer.headers().get("Content-Type") + " " + answer.bodyText();
  }

  /** Removes the claims' keys. */
  public void remove(IdempotencyClaim... claims) {
    for (IdempotencyClaim c : claims) {
      jdbc.update("DELETE FROM hr_idempotency WHERE id = ?", c.id());
    }
  }
}
