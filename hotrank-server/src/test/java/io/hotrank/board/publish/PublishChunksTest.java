package io.hotrank.board.publish;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How a family's segment boards are cut into chunks published concurrently. */
class PublishChunksTest {

  @Test
  void fewSegments_stayOneChunk_manyAreSplitInFour_andChunksNeverExceedTheMaximum() {
    assertThat(BoardPublisher.chunkSize(0)).isEqualTo(1);
    assertThat(BoardPublisher.chunkSize(1)).isEqualTo(1);
    assertThat(BoardPublisher.chunkSize(49)).isEqualTo(49); // a live family's look: one transaction
    assertThat(BoardPublisher.chunkSize(50)).isEqualTo(25); // two chunks
    assertThat(BoardPublisher.chunkSize(99)).isEqualTo(25); // four chunks, published at once
    assertThat(BoardPublisher.chunkSize(800)).isEqualTo(200);
    assertThat(BoardPublisher.chunkSize(10_000)).isEqualTo(BoardPublisher.PUBLISH_CHUNK);
    for (int segments = 1; segments <= 2_000; segments++) {
      assertThat(BoardPublisher.chunkSize(segments)).isBetween(1, BoardPublisher.PUBLISH_CHUNK);
    }
  }
}
