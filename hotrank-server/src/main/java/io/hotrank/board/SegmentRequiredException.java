package io.hotrank.board;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import org.springframework.http.HttpHeaders;

/**
 * A segmented board was read as if it were one board: it is a family of segment boards, each read
 * under {@code /segments/<segment>}. Answered 400, naming the segments' URL (also as {@code Link}).
 */
public final class SegmentRequiredException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(400, "segment-required", "Segment required");

  private final String segments;

  public SegmentRequiredException(BoardDefinition board) {
    super(
        TYPE,
        "Board '"
            + board.name()
            + "' is split by "
            + board.segmentBy().configName()
            + ": read one segment at /api/v1/boards/"
            + board.name()
            + "/segments/{segment}; the segments are listed at /api/v1/boards/"
            + board.name()
            + "/segments");
    this.segments = "/api/v1/boards/" + board.name() + "/segments";
  }

  @Override
  public Problem problem() {
    return super.problem().withHeader(HttpHeaders.LINK, "<" + segments + ">; rel=\"index\"");
  }
}
