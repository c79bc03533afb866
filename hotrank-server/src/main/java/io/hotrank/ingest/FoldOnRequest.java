package io.hotrank.ingest;

/**
 * What {@code POST /api/v1/admin/events/fold} does on the configured source: applies everything
 * accepted before the call, and brings the Redis side up to the last fold, before answering.
 */
public interface FoldOnRequest {

  /**
   * Folds, or waits for the folders, until everything accepted before the call is folded (at most
   * {@code maxFolds} folds), then brings the listeners up to the last fold.
   *
   * @param progress counts each fold this call committed as soon as it commits, so that a call that
   *     fails part way says what it did
   * @throws RuntimeException when folding fails, or the folders do not get there in time
   */
  Summary foldAll(int maxFolds, Progress progress);

  /**
   * Returns once every event accepted before the call is folded and this instance's listeners
   * (Redis) are up to the last fold: what a manual recompute or rebuild waits for first, so that
   * its board holds every event whose {@code 202} came before it. Folds here where the source
   * allows it, else waits for the folders; for {@code hotrank.ingest.fold-barrier-timeout} at most.
   *
   * @throws FoldBehindException past that timeout (503 with Retry-After)
   */
  void awaitAccepted();

  /**
   * What a call did and where folding stands after it.
   *
   * @param folds the folds committed during the call (by this instance, or for Kafka by any)
   * @param events the events those folds applied (for Kafka, those this instance folded)
   * @param foldNo the last fold's number
   * @param position the event log's fold position; for Kafka, the sum of the partitions' positions
   * @param openGaps the event log's open gaps; 0 for Kafka
   */
  record Summary(int folds, int events, long foldNo, long position, int openGaps) {}

  /** What one call has committed so far. Confined to that call's thread. */
  final class Progress {
    private int folds;
    private int events;

    /** A fold of {@code events} events committed. */
    public void committed(int events) {
      folds++;
      this.events += events;
    }

    public int folds() {
      return folds;
    }

    public int events() {
      return events;
    }
  }
}
