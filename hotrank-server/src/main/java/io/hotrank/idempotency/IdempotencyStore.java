package io.hotrank.idempotency;

import io.hotrank.storage.SqlDialect;
import java.nio.charset.StandardCharsets;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one owner of {@code hr_idempotency}. A row is claimed by one request (a token) until its
 * lease ends, then done with its answer. Every statement binds its parameters; {@link
 * #recordWithin} runs in its caller's transaction, the others autocommit.
 */
class IdempotencyStore implements IdempotentAnswers {

  static final int PENDING = 0;
  static final int DONE = 1;

  private static final String COMPLETE =
      "UPDATE hr_idempotency SET state = ?, status = ?, headers = ?, body = ?"
          + " WHERE id = ? AND token = ? AND state = ?";

  /** A row as read. */
  record Row(
      String fingerprint,
      String token,
      int state,
      long leaseUntil,
      long createdAt,
      @Nullable KeptAnswer answer) {}

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;

  IdempotencyStore(JdbcTemplate jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
  }

  /**
   * Claims the key for a request, unless a row holds it. The claim's commit does not wait for the
   * log's flush where the engine allows it: the write it guards, and the answer recorded with it,
   * commit durably after it, and a claim lost in a crash belonged to a request that had no answer
   * yet.
   *
   * @return whether the row was inserted
   */
  boolean claim(String id, String fingerprint, String token, long now, long leaseUntil) {
    return dialect.insertIgnoringDuplicateUnflushed(
            jdbc,
            "hr_idempotency",
            "id, fingerprint, token, state, lease_until, created_at",
            id,
            fingerprint,
            token,
            PENDING,
            leaseUntil,
            now)
        == 1;
  }

  /**
   * Takes over a key whose request died while running (its lease ended) or whose answer is past the
   * retention but not pruned yet.
   *
   * @return whether this request holds the key now
   */
  boolean takeOver(
      String id, String fingerprint, String token, long now, long leaseUntil, long keptSince) {
    return jdbc.update(
            "UPDATE hr_idempotency SET fingerprint = ?, token = ?, state = ?, lease_until = ?,"
                + " status = NULL, headers = NULL, body = NULL, created_at = ?"
                + " WHERE id = ? AND ((state = ? AND lease_until < ?) OR created_at < ?)",
            fingerprint,
            token,
            PENDING,
            leaseUntil,
            now,
            id,
            PENDING,
            now,
            keptSince)
        == 1;
  }

  Optional<Row> find(String id) {
    List<Row> rows =
        jdbc.query(
            "SELECT fingerprint, token, state, lease_until, created_at, status, headers, body"
                + " FROM hr_idempotency WHERE id = ?",
            (rs, n) -> {
              String fingerprint = rs.getString(1);
              int state = rs.getInt(3);
              KeptAnswer answer = null;
              if (state == DONE) {
                String headers = rs.getString(7);
                String body = rs.getString(8);
                answer =
                    new KeptAnswer(
                        fingerprint,
                        rs.getInt(6),
                        KeptAnswer.parseHeaders(headers == null ? "" : headers),
                        body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8));
              }
              return new Row(
                  fingerprint, rs.getString(2), state, rs.getLong(4), rs.getLong(5), answer);
            },
            id);
    return rows.stream().findFirst();
  }

  /**
   * Records the answer of the request holding the key.
   *
   * @return false when the key is no longer the request's
   */
  boolean complete(String id, String token, KeptAnswer answer) {
    return jdbc.update(
            COMPLETE,
            DONE,
            answer.status(),
            answer.headersText(),
            answer.bodyText(),
            id,
            token,
            PENDING)
        == 1;
  }

  @Override
  public boolean recordWithin(List<Answer> answers) {
    if (answers.isEmpty()) {
      return true;
    }
    List<Object[]> args = new ArrayList<>(answers.size());
    for (Answer a : answers) {
      // The fingerprint is the row's already.
      KeptAnswer kept =
          new KeptAnswer("", a.status(), Map.of("Content-Type", a.contentType()), a.body());
      args.add(
          new Object[] {
            DONE,
            kept.status(),
            kept.headersText(),
            kept.bodyText(),
            a.claim().id(),
            a.claim().token(),
            PENDING
          });
    }
    int[] counts = jdbc.batchUpdate(COMPLETE, args);
    boolean unreported = false;
    for (int n : counts) {
      if (n == Statement.SUCCESS_NO_INFO) {
        unreported = true;
      } else if (n != 1) {
        return false;
      }
    }
    if (unreported && !allDone(answers)) {
      return false;
    }
    answers.forEach(a -> a.claim().markRecorded());
    return true;
  }

  /** Whether every claim's row is done under its token: a driver that did not say what it did. */
  private boolean allDone(List<Answer> answers) {
    for (Answer a : answers) {
      Integer done =
          jdbc.queryForObject(
              "SELECT COUNT(*) FROM hr_idempotency WHERE id = ? AND token = ? AND state = ?",
              Integer.class,
              a.claim().id(),
              a.claim().token(),
              DONE);
      if (done == null || done != 1) {
        return false;
      }
    }
    return true;
  }

  /**
   * Frees the key of a request that failed (nothing of it was written): a retry runs it again. A
   * request whose write recorded its answer keeps it (the row is done).
   */
  void release(String id, String token) {
    jdbc.update(
        "DELETE FROM hr_idempotency WHERE id = ? AND token = ? AND state = ?", id, token, PENDING);
  }

  /**
   * Deletes up to {@code batch} rows created before {@code cutoff}.
   *
   * @return how many
   */
  int prune(long cutoff, int batch) {
    List<String> ids =
        jdbc.queryForList(
            "SELECT id FROM hr_idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?",
            String.class,
            cutoff,
            batch);
    int deleted = 0;
    for (int from = 0; from < ids.size(); from += 500) {
      List<String> chunk = ids.subList(from, Math.min(ids.size(), from + 500));
      Object[] args = new Object[chunk.size() + 1];
      for (int i = 0; i < chunk.size(); i++) {
        args[i] = chunk.get(i);
      }
      args[chunk.size()] = cutoff;
      deleted +=
          jdbc.update(
              "DELETE FROM hr_idempotency WHERE id IN ("
                  + String.join(", ", java.util.Collections.nCopies(chunk.size(), "?"))
                  + ") AND created_at < ?",
              args);
    }
    return deleted;
  }
}
