package io.hotrank.ingest;

/** Reads where ingest stands on the configured source; one bean, the source's. */
@FunctionalInterface
public interface IngestReporter {

  /**
   * @throws RuntimeException when the database or the Kafka cluster did not answer (503)
   */
  IngestReport report();
}
