package io.hotrank.board;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * One entry of {@code hotrank.boards} as written in configuration; any field may be missing until
 * {@link BoardDefinition#from} validates it.
 */
record BoardSpec(
    String name,
    String biz,
    String algorithm,
    Double gravity,
    Duration halfLife,
    Map<String, Double> weights,
    Duration window,
    Integer size,
    String refresh) {

  /** The {@code hotrank.boards} list. A user's list replaces the shipped default board. */
  @ConfigurationProperties("hotrank")
  record Declared(List<BoardSpec> boards) {
    Declared {
      boards = boards == null ? List.of() : List.copyOf(boards);
    }
  }
}
