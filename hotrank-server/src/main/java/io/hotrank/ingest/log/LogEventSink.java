package io.hotrank.ingest.log;

import io.hotrank.event.Event;
import io.hotrank.idempotency.IdempotentAnswers;
import io.hotrank.ingest.EventIngest;
import io.hotrank.ingest.EventSink;
import io.hotrank.ingest.IngestOutcomeUnknownException;
import io.hotrank.ingest.IngestOverloadedException;
import io.hotrank.ingest.fold.EventIds;
import io.micrometer.core.instrument.Counter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.http.MediaType;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Appends the appender's groups to the event log. A group with no event id and no idempotency key
 * is one autocommitted INSERT. Otherwise one transaction tells the duplicates ({@link EventIds}),
 * inserts the other events, and records the answer of each batch that has an idempotency key: the
 * events and the answers a retry replays commit together or not at all.
 */
final class LogEventSink implements EventSink {

  /** Tries of a group whose ids a concurrent append recorded first. */
  private static final int ATTEMPTS = 3;

  private final EventLog log;
  private final EventIds ids;
  private final IdempotentAnswers answers;
  private final TransactionTemplate tx;
  private final JsonMapper json;
  private final Clock clock;
  private final Counter duplicates;

  LogEventSink(
      EventLog log,
      EventIds ids,
      IdempotentAnswers answers,
      TransactionTemplate tx,
      JsonMapper json,
      Clock clock,
      Counter duplicates) {
    this.log = log;
    this.ids = ids;
    this.answers = answers;
    this.tx = tx;
    this.json = json;
    this.clock = clock;
    this.duplicates = duplicates;
  }

  @Override
  public Writer writer(int index) {
    return this::write;
  }

  private int[] write(List<Batch> batches, long deadlineNanos) {
    List<Event> all = new ArrayList<>();
    boolean plain = true;
    for (Batch b : batches) {
      all.addAll(b.events());
      plain &= b.claim() == null;
    }
    for (int i = 0; plain && i < all.size(); i++) {
      plain = all.get(i).id() == null;
    }
    if (plain) {
      log.append(all);
      return new int[batches.size()];
    }
    for (Batch b : batches) {
      if (b.claim() != null) {
        b.claim().decidedByTransaction();
      }
    }
    for (int attempt = 1; ; attempt++) {
      try {
        int[] dropped = writeOnce(batches, all);
        log.makeDurable();
        for (int d : dropped) {
          duplicates.increment(d);
        }
        return dropped;
      } catch (DuplicateKeyException | PessimisticLockingFailureException raced) {
        // Another append recorded one of the ids first (or the two deadlocked on them) and this
        // one was rolled back; the next try sees the id as a duplicate.
        if (attempt == ATTEMPTS) {
          throw raced;
        }
      }
    }
  }

  private int[] writeOnce(List<Batch> batches, List<Event> all) {
    int[] dropped = new int[batches.size()];
    AtomicBoolean written = new AtomicBoolean();
    try {
      tx.executeWithoutResult(
          status -> {
            boolean[] duplicate = ids.record(all, Event::biz, Event::id, clock.millis());
            List<Event> kept = new ArrayList<>(all.size());
            int at = 0;
            for (int b = 0; b < batches.size(); b++) {
              dropped[b] = 0;
              for (Event e : batches.get(b).events()) {
                if (duplicate[at++]) {
                  dropped[b]++;
                } else {
                  kept.add(e);
                }
              }
            }
            if (!kept.isEmpty()) {
              log.insert(kept);
            }
            record(batches, dropped);
            written.set(true);
          });
    } catch (RuntimeException e) {
      if (written.get()) {
        // The commit itself failed (whatever the transaction manager made of the SQLException):
        // it may have happened.
        throw new IngestOutcomeUnknownException("the commit of the append failed", e);
      }
      throw e; // rolled back, or never begun: nothing appended
    }
    return dropped;
  }

  private void record(List<Batch> batches, int[] dropped) {
    List<IdempotentAnswers.Answer> keyed = new ArrayList<>();
    for (int b = 0; b < batches.size(); b++) {
      Batch batch = batches.get(b);
      if (batch.claim() != null) {
        byte[] body =
            json.writeValueAsBytes(
                new EventIngest.Accepted(
                    batch.events().size() - dropped[b], batch.repeats() + dropped[b]));
        keyed.add(
            new IdempotentAnswers.Answer(
                batch.claim(), 202, MediaType.APPLICATION_JSON_VALUE, body));
      }
    }
    if (!answers.recordWithin(keyed)) {
      // A request outlived its key's lease (60 s by default, twice the longest wait of an
      // append) and a retry holds the key now: nothing of the group is written, and its
      // requests are answered 503 and retried.
      throw new IngestOverloadedException("an idempotency key's lease ended before its append");
    }
  }
}
