package io.hotrank.idempotency;

import java.util.List;

/**
 * Records writes' answers in the writes' own database transaction, so that a write and the answer a
 * retry replays commit together or not at all. A write whose answer is not recorded this way has it
 * recorded by the filter once the answer is rendered.
 */
public interface IdempotentAnswers {

  /**
   * What a request with a key answers.
   *
   * @param body what the request's handler answers, byte for byte
   */
  record Answer(IdempotencyClaim claim, int status, String contentType, byte[] body) {}

  /**
   * Records the answers of the claims' requests; called inside the writes' transaction, on the
   * thread that runs it, in one round trip.
   *
   * @return false when a key is no longer its request's (it outlived its lease and a retry took it
   *     over): the caller must roll its writes back
   */
  boolean recordWithin(List<Answer> answers);
}
