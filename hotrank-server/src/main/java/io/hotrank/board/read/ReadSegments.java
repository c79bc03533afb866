package io.hotrank.board.read;

import io.hotrank.board.BoardSegments;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.publish.SnapshotSources;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/** {@link BoardSegments} from the family index in the database and the read path. */
@Component
class ReadSegments implements BoardSegments {

  private final SnapshotSources sources;
  private final BoardReader reader;

  ReadSegments(SnapshotSources sources, BoardReader reader) {
    this.sources = sources;
    this.reader = reader;
  }

  @Override
  public List<Segment> list(String board, @Nullable String prefix, int limit) {
    return sources.segments(board, prefix, limit).stream()
        .map(row -> new Segment(row.segment(), row.entries(), row.version()))
        .toList();
  }

  @Override
  public BoardSnapshot read(String board, String segment) {
    return reader.read(board, segment).snapshot();
  }
}
