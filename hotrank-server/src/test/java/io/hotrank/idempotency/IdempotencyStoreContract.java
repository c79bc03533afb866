package io.hotrank.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.MigratedDatabase;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The answers a write records in its own transaction, against a real database: they are recorded
 * only under the claims that still hold their keys, all or none, so that a request that outran its
 * lease (a retry took its key over) cannot record over the retry's claim, and its write, which
 * commits with them, rolls back. One subclass per engine.
 */
abstract class IdempotencyStoreContract {

  /** The engine under test, registered by the subclass as a static extension. */
  protected abstract MigratedDatabase database();

  private final String prefix = UUID.randomUUID().toString().substring(0, 8);

  @Test
  void answersAreRecordedWithinTheWritesTransaction_onlyUnderClaimsThatStillHoldTheirKeys() {
    IdempotencyStore store = new IdempotencyStore(database().jdbc(), database().dialect());
    long now = System.currentTimeMillis();
    IdempotencyClaim first = claim(store, "a", now);
    IdempotencyClaim outrun = claim(store, "b", now - 120_000); // its lease ended a minute ago
    IdempotencyClaim retry = new IdempotencyClaim(outrun.id(), "retry-token");
    assertThat(store.takeOver(outrun.id(), "fp", retry.token(), now, now + 60_000, 0)).isTrue();

    // As the event log's writer does: the transaction rolls back when the answers were not all
    // recorded, so nothing of the group is kept.
    Boolean stale =
        database()
            .tx()
            .execute(
                s -> {
                  boolean all = store.recordWithin(List.of(answer(first), answer(outrun)));
                  if (!all) {
                    s.setRollbackOnly();
                  }
                  return all;
                });

    assertThat(stale).isFalse();
    assertThat(first.recorded()).isFalse();
    assertThat(store.find(first.id()).orElseThrow().state()).isEqualTo(IdempotencyStore.PENDING);
    assertThat(store.find(outrun.id()).orElseThrow().token()).isEqualTo("retry-token");
    assertThat(store.find(outrun.id()).orElseThrow().state()).isEqualTo(IdempotencyStore.PENDING);

    Boolean current =
        database().tx().execute(s -> store.recordWithin(List.of(answer(first), answer(retry))));

    assertThat(current).isTrue();
    assertThat(first.recorded()).isTrue();
    assertThat(store.find(first.id()).orElseThrow().state()).isEqualTo(IdempotencyStore.DONE);
    assertThat(store.find(retry.id()).orElseThrow().answer().bodyText()).isEqualTo("{\"ok\":1}");
  }

  private IdempotencyClaim claim(IdempotencyStore store, String key, long leaseFrom) {
    IdempotencyClaim claim = new IdempotencyClaim(prefix + "-" + key, "token-" + key);
    assertThat(store.claim(claim.id(), "fp", claim.token(), leaseFrom, leaseFrom + 60_000))
        .isTrue();
    return claim;
  }

  private static IdempotentAnswers.Answer answer(IdempotencyClaim claim) {
    return new IdempotentAnswers.Answer(
        claim, 202, "application/json", "{\"ok\":1}".getBytes(StandardCharsets.UTF_8));
  }
}
