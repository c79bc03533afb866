package io.hotrank.ingest;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where ingest stands, as {@code GET /api/v1/admin/ingest} answers: the same whichever instance
 * answers, except {@code queuedHere}.
 */
public sealed interface IngestReport {

  /** {@code log} or {@code kafka}. */
  String source();

  /**
   * The event log.
   *
   * @param head the highest seq in the log (0 when empty)
   * @param position the fold cursor: every seq up to it was folded or is an open gap
   * @param openGaps seqs at or below the position not yet seen (an uncommitted insert)
   * @param foldNo the last fold's number
   * @param lag {@code head - position}, rows accepted and not yet folded (an upper bound)
   * @param queuedHere events this instance accepted and has not yet written
   */
  record Log(
      String source, long head, long position, int openGaps, long foldNo, long lag, int queuedHere)
      implements IngestReport {}

  /**
   * A Kafka topic.
   *
   * @param topic the events' topic
   * @param group the folders' consumer group
   * @param deadLetterTopic where records that cannot be folded go
   * @param partitions each partition, in order
   * @param lag the partitions' lags summed
   * @param deadLetters records sent to the dead-letter topic so far, by reason
   * @param parked records of items that did not exist yet, waiting for them (at most {@code
   *     hotrank.ingest.kafka.item-grace}, then dead letters)
   * @param foldNo the last fold's number
   * @param queuedHere events this instance accepted and has not yet written to the topic
   */
  record Kafka(
      String source,
      String topic,
      String group,
      String deadLetterTopic,
      List<Partition> partitions,
      long lag,
      Map<String, Long> deadLetters,
      long parked,
      long foldNo,
      int queuedHere)
      implements IngestReport {}

  /**
   * A partition of the topic.
   *
   * @param owner the client id of the group member folding it now ({@code
   *     hotrank-fold-<instance>}), null while it is not assigned
   * @param position where the folds stand (stored with them in the database): past every record
   *     folded and the transaction markers after them
   * @param endOffset the broker's end offset for consumers reading committed records
   * @param lag {@code endOffset - position}, 0 at rest
   */
  record Partition(
      int partition, @Nullable String owner, long position, long endOffset, long lag) {}
}
