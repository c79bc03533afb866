package io.hotrank.board;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Where boards computed outside the board packages (realtime boards) are published: the same path
 * as batch boards (local snapshot, Redis, database, notices, static export).
 */
public interface BoardSink {

  /**
   * Publishes entries under a new version, fenced by the publishing run's lease, with the board's
   * operator controls applied as they are when the version is taken.
   *
   * @param entries the candidates best first: the board's top plus one per live control (see {@link
   *     #controls}), so that blocks and pins leave the board full
   * @return the snapshot this instance serves afterwards
   * @throws StalePublishException if a higher fencing token has published the board
   */
  BoardSnapshot publish(
      BoardDefinition board, Instant computedAt, List<BoardEntry> entries, long fence);

  /**
   * Publishes segment boards of one family, each under a new version as {@link #publish} does, in
   * chunks written together; stops starting chunks once {@code cancelled} answers true.
   *
   * @param segments each segment's candidates, best first, over-fetched as for {@link #publish}
   * @throws StalePublishException if a higher fencing token has published one of them
   */
  void publishSegments(
      BoardDefinition board,
      Map<String, List<BoardEntry>> segments,
      Instant computedAt,
      long fence,
      BooleanSupplier cancelled);

  /**
   * The segments of a family the database stores with entries (what a family's rebuild must empty
   * when it finds none of their items).
   *
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  List<String> segmentsWithEntries(String family);

  /**
   * The segments of a family read on this instance lately (those its local tier holds, at most
   * {@code max}): what a family's publishing takes first when more segments changed than one look
   * publishes.
   */
  List<String> readSegments(String family, int max);

  /**
   * The controls that shape each of the given segment boards of a family (the family's and the
   * segment's own), as stored now, expired ones included.
   */
  Map<String, List<BoardControl>> controls(BoardDefinition board, List<String> segments);

  /**
   * The board's operator controls as stored now, expired ones included (filter with {@link
   * ControlsApplied#live}).
   */
  List<BoardControl> controls(String board);

  /**
   * Publishes the board's (or one segment board's) newest snapshot again under a new version, with
   * its controls and its review as they are stored now: what a change of either does after it
   * commits, so that every instance serves it without waiting for a computation.
   *
   * @param segment null for a board that is one board
   * @param released items to look up if they are not candidates (a control just removed)
   * @return the snapshot this instance serves afterwards; empty if the board was never published
   * @throws StalePublishException if refused for its fence again and again
   */
  java.util.Optional<BoardSnapshot> republish(
      BoardDefinition board, @Nullable String segment, java.util.Collection<Long> released);

  /** The snapshot of the board this instance serves now, if any. */
  @Nullable BoardSnapshot current(String board);
}
