package io.hotrank.idempotency;

/**
 * Records a write's answer in the write's own database transaction, so that the write and the
 * answer a retry replays commit together or not at all. A write whose answer is not recorded this
 * way has it recorded by the filter once the answer is rendered.
 */
public interface IdempotentAnswers {

  /**
   * Records the answer of the claim's request; called inside the write's transaction, on the thread
   * that runs it. The body must be what the request's handler will answer, byte for byte.
   *
   * @return false when the key is no longer the request's (it outlived its lease and a retry took
   *     it over): the caller must roll its write back
   */
  boolean recordWithin(IdempotencyClaim claim, int status, String contentType, byte[] body);
}
