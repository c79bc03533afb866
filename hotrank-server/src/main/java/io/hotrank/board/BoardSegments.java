package io.hotrank.board;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The segment boards of segmented boards, for the pages that show them: a family's segments and one
 * segment board read through the read path. Thread-safe.
 */
public interface BoardSegments {

  /** A segment board of a family as a listing shows it. */
  record Segment(String segment, int items, long version) {}

  /**
   * The family's segments with entries, most entries first, then by name.
   *
   * @param prefix only segments whose name starts with it; null or empty for all
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  List<Segment> list(String board, @Nullable String prefix, int limit);

  /**
   * One segment board, as a read serves it (held here, else Redis, else the database; version 0 for
   * a segment with no item).
   *
   * @throws BoardNotFoundException if no such board is configured
   * @throws io.hotrank.problem.InvalidRequestException if the board is not segmented or the segment
   *     could never exist
   * @throws BoardUnavailableException if no layer answers
   */
  BoardSnapshot read(String board, String segment);
}
