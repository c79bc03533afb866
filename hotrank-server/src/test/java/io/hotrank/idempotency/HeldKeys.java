package io.hotrank.idempotency;

import io.hotrank.storage.SqlDialect;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
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
        new IdempotencyClaim(HexFormat.of().formatHex(id), "token-" + leaseFrom);
    if (!store.claim(claim.id(), "fp", claim.token(), leaseFrom, leaseFrom + LEASE_MILLIS)) {
      throw new IllegalStateException("a fresh key was taken");
    }
    return claim;
  }

  /** A retry's claim of the same key, taken over at {@code now} after the lease of {@code held}. */
  public IdempotencyClaim takeOver(IdempotencyClaim held, long now) {
    IdempotencyClaim retry = new IdempotencyClaim(held.id(), "retry-" + now);
    if (!store.takeOver(held.id(), "fp", retry.token(), now, now + LEASE_MILLIS, 0)) {
      throw new IllegalStateException("the key's lease has not ended");
    }
    return retry;
  }

  /** The body of the answer kept under the claim's key, or null while the key is pending. */
  public @Nullable String answer(IdempotencyClaim claim) {
    IdempotencyStore.Row row = store.find(claim.id()).orElseThrow();
    return row.state() == IdempotencyStore.DONE ? row.answer().bodyText() : null;
  }

  /** Removes the claims' keys. */
  public void remove(IdempotencyClaim... claims) {
    for (IdempotencyClaim c : claims) {
      jdbc.update("DELETE FROM hr_idempotency WHERE id = ?", c.id());
    }
  }
}
