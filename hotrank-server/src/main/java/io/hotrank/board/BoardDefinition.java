package io.hotrank.board;

import io.hotrank.core.score.HotScore;
import io.hotrank.core.score.Interactions;
import io.hotrank.core.score.RankKey;
import io.hotrank.core.score.Weights;
import io.hotrank.item.Counters;
import io.hotrank.item.ItemService;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
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
 * @param kind how the board is computed, with the settings only its kind has
 * @param weights the weight of each interaction type (a window board adds them per event)
 * @param maxPins how many items operators may pin at once ({@code hotrank.boards[i].max-pins})
 * @param segmentBy what splits the board into segment boards; null: one board
 * @param maxPerAuthor at most this many entries of one author; 0: no cap
 * @param scaleBy the segments whose size divides an item's score; null: not scaled
 * @param trust which counters the board ranks by: trusted (the default; a batch or live board's
 *     {@code score} then reads thousandths, a window board adds each event's trusted weight, in
 *     interactions) or raw
 * @param review which items an operator reviews before the public board lists them
 * @param itemUrl where an item lives on the platform ({@code {id}} and {@code {biz}} replaced), for
 *     the board's feeds; null: none
 * @param explain who may read an item's explanation on the board
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
    Duration refreshInterval,
    BoardKind kind,
    Weights weights,
    int maxPins,
    @Nullable SegmentBy segmentBy,
    int maxPerAuthor,
    @Nullable SegmentBy scaleBy,
    Trust trust,
    Review review,
    @Nullable String itemUrl,
    Explain explain) {

  /** Who may ask why an item is where it is on the board. */
  public enum Explain {
    /** Everyone, as the board read (the default). */
    PUBLIC,
    /** Operators: a request with an operator's token, of any role. */
    OPERATOR,
    /** Nobody: the endpoint answers 404. */
    OFF;

    /** The setting's value. */
    public String configName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Which items are held off the public board until an operator approves them. */
  public enum Review {
    /** None: the board lists what it ranks (the default). */
    OFF,
    /** Those that look bought (docs/design/trust.md): too few trusted interactions, or a ring. */
    SUSPICIOUS,
    /** Every item, until it or its author is approved (Mastodon's trends). */
    REQUIRED;

    /** The setting's value. */
    public String configName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Which counters a board ranks by ({@link Counters}). */
  public enum Trust {
    /** The interactions weighed by their actors. */
    TRUSTED,
    /** Every interaction once. */
    RAW;

    /** The setting's value. */
    public String configName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** The default of {@code hotrank.boards[i].max-pins}. */
  static final int DEFAULT_MAX_PINS = 3;

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
    var kindParser = BoardKind.parser(spec, property, problems);
    String algorithm = spec.algorithm() == null ? "hacker-news" : spec.algorithm();
    HotScore score = null;
    Weights weights = Weights.likesOnly();
    try {
      weights = spec.weights() == null ? Weights.likesOnly() : Weights.of(spec.weights());
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
    BoardKind kind =
        kindParser == null
            ? null
            : kindParser.apply(
                new BoardKind.Settings(spec, property, window, algorithm, score, problems));
    String refresh =
        spec.refresh() != null
            ? spec.refresh()
            : kind == null ? "0 * * * * *" : kind.defaultRefresh();
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
    int maxPins =
        spec.maxPins() == null ? Math.min(DEFAULT_MAX_PINS, Math.max(size, 1)) : spec.maxPins();
    if (maxPins < 0 || maxPins > size) {
      problems.add(property + ".max-pins=" + maxPins + " must be between 0 and the size, " + size);
    }
    SegmentBy segmentBy = null;
    try {
      segmentBy = SegmentBy.parse(spec.segmentBy());
    } catch (IllegalArgumentException e) {
      problems.add(property + ".segment-by=" + e.getMessage());
    }
    int maxPerAuthor = spec.maxPerAuthor() == null ? 0 : spec.maxPerAuthor();
    if (spec.maxPerAuthor() != null && (maxPerAuthor < 1 || maxPerAuthor > size)) {
      problems.add(
          property
              + ".max-per-author="
              + maxPerAuthor
              + " must be between 1 and the size, "
              + size);
    }
    SegmentBy scaleBy = null;
    try {
      scaleBy = SegmentBy.parse(spec.scaleBy());
    } catch (IllegalArgumentException e) {
      problems.add(property + ".scale-by=" + e.getMessage());
    }
    if (scaleBy != null && segmentBy != null) {
      problems.add(
          property + ".scale-by applies to an unsegmented board; remove segment-by or scale-by");
    }
    Trust trust = null;
    if (spec.trust() != null && !spec.trust().equals("trusted") && !spec.trust().equals("raw")) {
      problems.add(property + ".trust='" + spec.trust() + "' is unknown; expected trusted or raw");
    } else {
      trust = "raw".equals(spec.trust()) ? Trust.RAW : Trust.TRUSTED;
    }
    Review review = option(Review.class, spec.review(), Review.OFF, property + ".review", problems);
    Explain explain =
        option(Explain.class, spec.explain(), Explain.PUBLIC, property + ".explain", problems);
    String itemUrl = spec.itemUrl();
    if (itemUrl != null) {
      problems.addAll(checkItemUrl(property + ".item-url", itemUrl));
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid board configuration: " + String.join("; ", problems));
    }
    return new BoardDefinition(
        spec.name(),
        spec.biz(),
        kind.scoresItems() ? algorithm : kind.configName(),
        trust == Trust.TRUSTED ? score.countingIn(Counters.TRUSTED_UNIT) : score,
        window,
        size,
        refresh,
        cron,
        interval(cron),
        kind,
        weights,
        maxPins,
        segmentBy,
        maxPerAuthor,
        scaleBy,
        trust,
        review,
        itemUrl,
        explain);
  }

  /**
   * One of an enum's values by its lower-case name, or {@code fallback} when unset; an unquoted
   * {@code off} in YAML arrives as {@code false} (YAML 1.1) and is taken as {@code off}.
   */
  private static <E extends Enum<E>> E option(
      Class<E> type, @Nullable String value, E fallback, String property, List<String> problems) {
    if (value == null) {
      return fallback;
    }
    String name = "false".equals(value) ? "off" : value;
    for (E option : type.getEnumConstants()) {
      if (option.name().toLowerCase(java.util.Locale.ROOT).equals(name)) {
        return option;
      }
    }
    problems.add(
        property
            + "='"
            + value
            + "' is unknown; expected "
            + java.util.Arrays.stream(type.getEnumConstants())
                .map(o -> o.name().toLowerCase(java.util.Locale.ROOT))
                .collect(java.util.stream.Collectors.joining(", ")));
    return fallback;
  }

  /** What is wrong with an item URL template: absolute http(s), naming {@code {id}}. */
  private static List<String> checkItemUrl(String property, String template) {
    List<String> problems = new ArrayList<>();
    if (!template.contains("{id}")) {
      problems.add(property + "='" + template + "' must contain {id}, where the item's id goes");
    }
    try {
      java.net.URI uri = new java.net.URI(itemUrl(template, "biz", 1));
      if (!uri.isAbsolute()
          || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        problems.add(property + "='" + template + "' must be an absolute http or https URL");
      }
    } catch (java.net.URISyntaxException e) {
      problems.add(property + "='" + template + "' is not a URL: " + e.getReason());
    }
    return problems;
  }

  private static String itemUrl(String template, String biz, long itemId) {
    return template.replace("{biz}", biz).replace("{id}", Long.toString(itemId));
  }

  /** Where an item of this board lives on the platform; null when the board names no URL. */
  public @Nullable String itemUrl(long itemId) {
    return itemUrl == null ? null : itemUrl(itemUrl, biz, itemId);
  }

  /** The counters this board ranks by: its score reads them. */
  public Interactions ranked(Counters counters) {
    return trust == Trust.TRUSTED ? counters.trusted() : counters.raw();
  }

  /**
   * What one interaction counts as in the counters the board ranks by: {@link
   * Counters#TRUSTED_UNIT} for trusted counters (thousandths), 1 for raw ones. A leaderboard's
   * value is its counter divided by it.
   */
  public long countUnit() {
    return trust == Trust.TRUSTED ? Counters.TRUSTED_UNIT : 1;
  }

  /** Whether the board is a family of segment boards ({@code segment-by} is set). */
  public boolean segmented() {
    return segmentBy != null;
  }

  /** Whether the board is kept in Redis by the fold (a window, live board or leaderboard). */
  public boolean realtime() {
    return kind.realtime();
  }

  /**
   * The board's kind as the given record, for the code of that kind.
   *
   * @throws IllegalStateException if the board is of another kind
   */
  public <K extends BoardKind> K kind(Class<K> type) {
    if (!type.isInstance(kind)) {
      throw new IllegalStateException(
          "Board '" + name + "' is of type " + kind.configName() + ", not " + type.getSimpleName());
    }
    return type.cast(kind);
  }

  /**
   * Whether a boost adds {@code log10(factor)} to the score rather than multiplying it: Reddit's
   * score is the logarithm of the net votes, so adding the logarithm multiplies the votes.
   */
  public boolean logarithmicScore() {
    return kind.scoresItems() && "reddit".equals(algorithm);
  }

  /**
   * Whether the board ranks the items created in its window by its formula (a batch or live board),
   * rather than by events or a counter.
   */
  public boolean scoresItems() {
    return kind.scoresItems();
  }

  /**
   * An item's score at {@code at} by the board's formula. A formula with a time-invariant order
   * scores through its rank key, so that a batch board, a live board and an operator's lookup of
   * the same definition give the same number and the same order to the last bit.
   */
  public double scoreAt(Interactions counts, long createdAtMillis, Instant at) {
    RankKey order = score.rankKey();
    Instant createdAt = Instant.ofEpochMilli(createdAtMillis);
    // An item created after `at` (a pin of one) is scored at age zero, as the formula clamps it.
    return order == null || createdAt.isAfter(at)
        ? score.score(counts, createdAt, at)
        : order.score(order.key(counts, createdAt), at);
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
