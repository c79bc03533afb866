package io.hotrank.board;

import io.hotrank.core.score.HotScore;
import io.hotrank.core.score.Weights;
import io.hotrank.item.ItemService;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.scheduling.support.CronExpression;

/**
 * A validated board: what it ranks, how, over which window, how many entries, how often. Immutable
 * and thread-safe.
 *
 * @param name unique board name, used in URLs and Redis keys
 * @param biz the content type it ranks
 * @param algorithm the algorithm name as configured
 * @param score the hot-score function
 * @param window only items created within this long before the computation are ranked
 * @param size the number of entries kept (N of the Top-N)
 * @param refresh the cron expression as configured
 * @param cron the parsed cron expression
 * @param refreshInterval the time between two consecutive runs, for HTTP caching hints
 */
public record BoardDefinition(
    String name,
    String biz,
    String algorithm,
    HotScore score,
    Duration window,
    int size,
    String refresh,
    CronExpression cron,
    Duration refreshInterval) {

  static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");
  static final int MAX_SIZE = 10_000;

  /**
   * Validates one configured board.
   *
   * @param property the configuration path of the entry, for example {@code hotrank.boards[0]}
   * @throws IllegalArgumentException naming every bad value and its property
   */
  static BoardDefinition from(BoardSpec spec, String property) {
    List<String> problems = new ArrayList<>();
    if (spec.name() == null || !NAME.matcher(spec.name()).matches()) {
      problems.add(property + ".name='" + spec.name() + "' must match " + NAME.pattern());
    }
    if (spec.biz() == null || !ItemService.BIZ.matcher(spec.biz()).matches()) {
      problems.add(property + ".biz='" + spec.biz() + "' must match " + ItemService.BIZ.pattern());
    }
    int size = spec.size() == null ? 100 : spec.size();
    if (size < 1 || size > MAX_SIZE) {
      problems.add(property + ".size=" + size + " must be between 1 and " + MAX_SIZE);
    }
    Duration window = spec.window() == null ? Duration.ofDays(7) : spec.window();
    if (window.isNegative() || window.isZero()) {
      problems.add(property + ".window=" + window + " must be positive");
    }
    String refresh = spec.refresh() == null ? "0 * * * * *" : spec.refresh();
    CronExpression cron = null;
    try {
      cron = CronExpression.parse(refresh);
    } catch (IllegalArgumentException e) {
      problems.add(
          property
              + ".refresh='"
              + refresh
              + "' is not a cron expression (6 fields or"
              + " a macro such as @hourly): "
              + e.getMessage());
    }
    String algorithm = spec.algorithm() == null ? "hacker-news" : spec.algorithm();
    HotScore score = null;
    try {
      Weights weights = spec.weights() == null ? Weights.likesOnly() : Weights.of(spec.weights());
      score =
          switch (algorithm) {
            case "hacker-news" ->
                HotScore.hackerNews(weights, spec.gravity() == null ? 1.5 : spec.gravity());
            case "reddit" -> HotScore.reddit(weights);
            case "decay" ->
                HotScore.decay(
                    weights, spec.halfLife() == null ? Duration.ofHours(6) : spec.halfLife());
            default -> {
              problems.add(
                  property
                      + ".algorithm='"
                      + algorithm
                      + "' is unknown; expected hacker-news, reddit or decay");
              yield null;
            }
          };
    } catch (IllegalArgumentException e) {
      problems.add(property + ": " + e.getMessage());
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid board configuration: " + String.join("; ", problems));
    }
    return new BoardDefinition(
        spec.name(), spec.biz(), algorithm, score, window, size, refresh, cron, interval(cron));
  }

  /** The gap between the next two runs of the cron, at least one second. */
  private static Duration interval(CronExpression cron) {
    LocalDateTime first = cron.next(LocalDateTime.of(2030, 1, 1, 0, 0));
    LocalDateTime second = first == null ? null : cron.next(first);
    if (second == null) {
      return Duration.ofMinutes(1);
    }
    Duration gap = Duration.between(first, second);
    return gap.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : gap;
  }
}
