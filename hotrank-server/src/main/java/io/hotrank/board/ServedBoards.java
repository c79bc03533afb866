package io.hotrank.board;

import org.jspecify.annotations.Nullable;

/** The boards as the read API serves them, for the capabilities that explain what it served. */
public interface ServedBoards {

  /**
   * The snapshot a read of the board (or of one segment board) is served now, from the nearest
   * layer that has it.
   *
   * @param segment null for a board that is one board
   * @throws BoardNotFoundException if no such board is configured
   * @throws SegmentRequiredException if the board is segmented and no segment is named
   * @throws io.hotrank.problem.InvalidRequestException if a segment is named that the board cannot
   *     have (field {@code segment})
   * @throws BoardUnavailableException if no layer has it or none answers
   */
  BoardSnapshot served(String name, @Nullable String segment);
}
