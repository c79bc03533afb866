package io.hotrank.ingest.kafka;

/**
 * A fold found its partition's stored position moved since it started: another folder (the one the
 * partition went to in a rebalance this one has not noticed yet) folded it. The fold rolls back and
 * the folder seeks to the stored position; nothing is applied twice.
 */
final class StalePositionException extends RuntimeException {

  StalePositionException(String topic, int partition) {
    super(
        "partition "
            + partition
            + " of '"
            + topic
            + "' was folded by another instance since this fold began");
  }
}
