package io.hotrank.board;

import io.hotrank.core.score.HotScore;
import io.hotrank.core.score.InteractionType;
import io.hotrank.core.score.Interactions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How a board is computed ({@code hotrank.boards[i].type}): one record per kind, owning the
 * settings only that kind has and their validation. Batch boards are scored by a scan on their cron
 * ({@code board.compute}); the others are kept in Redis by the fold of the events ({@code
 * io.hotrank.realtime}, one class per kind there).
 *
 * <p>Adding a kind: a record here (its settings, checks and the answers below), listed in {@link
 * #PARSERS} and {@code permits}; for a realtime kind, its behaviour in {@code io.hotrank.realtime}
 * (a {@code RealtimeKind} bean). Nothing else branches on the kind.
 */
public sealed interface BoardKind
    permits BoardKind.Batch, BoardKind.Live, BoardKind.Window, BoardKind.Leaderboard {

  /** The name as written in configuration and shown by the API. */
  String configName();

  /** Whether the board is kept in Redis by the fold (every kind but batch). */
  default boolean realtime() {
    return true;
  }

  /**
   * Whether the board ranks the items created in its window by its formula (batch and live), rather
   * than by events or a counter.
   */
  default boolean scoresItems() {
    return false;
  }

  /** The refresh when none is configured: a batch board every minute, the others every second. */
  default String defaultRefresh() {
    return "* * * * * *";
  }

  /**
   * The score of an item an operator controls that the board's candidates do not hold (a pin of an
   * item outside its top, a boost of one just below it), or null when the board cannot list it.
   *
   * @param pinned whether the control is a pin (a pinned item is listed whatever its score)
   */
  @Nullable Double lookUpScore(
      BoardDefinition board, Interactions counts, long createdAtMillis, Instant at, boolean pinned);

  /** A board scored by a scan of the items created in its window, on its cron. */
  record Batch() implements BoardKind {

    @Override
    public String configName() {
      return "batch";
    }

    @Override
    public boolean realtime() {
      return false;
    }

    @Override
    public boolean scoresItems() {
      return true;
    }

    @Override
    public String defaultRefresh() {
      return "0 * * * * *";
    }

    /**
     * By the formula at {@code at}; a boosted or unblocked item created outside the window is not
     * ranked (the scan would not have seen it), a pinned one is, wherever it was created.
     */
    @Override
    public @Nullable Double lookUpScore(
        BoardDefinition board, Interactions counts, long createdAtMillis, Instant at, boolean pin) {
      return scoreInWindow(board, counts, createdAtMillis, at, pin);
    }
  }

  /**
   * A Reddit or decay board kept in a Redis sorted set by the fold, ordered by a key that does not
   * change with time.
   */
  record Live() implements BoardKind {

    /** A live decay board's window in half-lives at most: beyond, old scores underflow to 0. */
    static final int MAX_HALF_LIVES = 1000;

    static BoardKind from(Settings s) {
      if (s.score() != null && s.score().rankKey() == null) {
        s.problems()
            .add(
                s.property()
                    + ".type=live needs algorithm reddit or decay, not '"
                    + s.algorithm()
                    + "': its order of two items changes as they age, so the board must be"
                    + " rescanned on its cron (type batch)");
      }
      Duration halfLife = s.spec().halfLife() == null ? Duration.ofHours(6) : s.spec().halfLife();
      if ("decay".equals(s.algorithm())
          && halfLife.isPositive()
          && s.window().toMillis() / (double) halfLife.toMillis() > MAX_HALF_LIVES) {
        s.problems()
            .add(
                s.property()
                    + ".window="
                    + s.window()
                    + " spans more than "
                    + MAX_HALF_LIVES
                    + " half-lives ("
                    + halfLife
                    + "): its oldest items' scores would underflow to 0 and tie, which a live"
                    + " board cannot order as a scan does; shorten the window or lengthen the"
                    + " half-life");
      }
      return new Live();
    }

    @Override
    public String configName() {
      return "live";
    }

    @Override
    public boolean scoresItems() {
      return true;
    }

    @Override
    public @Nullable Double lookUpScore(
        BoardDefinition board, Interactions counts, long createdAtMillis, Instant at, boolean pin) {
      return scoreInWindow(board, counts, createdAtMillis, at, pin);
    }
  }

  /**
   * The weighted events of a sliding window, kept in Redis buckets.
   *
   * @param bucket the bucket length; the window is a whole number of them
   * @param halfLife the per-bucket decay half-life; null weighs every bucket alike
   */
  record Window(Duration bucket, @Nullable Duration halfLife) implements BoardKind {

    /** Buckets per window at most. */
    static final int MAX_BUCKETS = 1440;

    static BoardKind from(Settings s) {
      Duration bucket = s.spec().bucket() == null ? Duration.ofMinutes(1) : s.spec().bucket();
      Duration halfLife = s.spec().halfLife();
      if (bucket.toMillis() < 1000 || bucket.toMillis() % 1000 != 0) {
        s.problems()
            .add(
                s.property()
                    + ".bucket="
                    + bucket
                    + " must be a whole number of seconds, at least 1s");
      } else if (s.window().toMillis() % bucket.toMillis() != 0
          || s.window().toMillis() / bucket.toMillis() > MAX_BUCKETS) {
        s.problems()
            .add(
                s.property()
                    + ".window="
                    + s.window()
                    + " must be a whole number of buckets ("
                    + bucket
                    + "), at most "
                    + MAX_BUCKETS);
      }
      if (halfLife != null && (halfLife.isNegative() || halfLife.isZero())) {
        s.problems().add(s.property() + ".half-life=" + halfLife + " must be positive");
      }
      return new Window(bucket, halfLife);
    }

    @Override
    public String configName() {
      return "window";
    }

    /** The bucket count of a window of this length. */
    public int buckets(Duration window) {
      return (int) (window.toMillis() / bucket.toMillis());
    }

    /**
     * A window board has no score outside its sorted sets: a pinned item shows 0 until the board's
     * next publish fetches it from Redis (its job over-fetches controlled items); a boosted or
     * unblocked one waits for that publish.
     */
    @Override
    public @Nullable Double lookUpScore(
        BoardDefinition board, Interactions counts, long createdAtMillis, Instant at, boolean pin) {
      return pin ? 0.0 : null;
    }
  }

  /**
   * One counter's all-time value, kept in sharded Redis sorted sets.
   *
   * @param counter the counter ranked by
   * @param shards the sorted sets, on different cluster slots
   */
  record Leaderboard(InteractionType counter, int shards) implements BoardKind {

    /** Shards at most. */
    static final int MAX_SHARDS = 64;

    static BoardKind from(Settings s) {
      String name = s.spec().counter() == null ? "like" : s.spec().counter();
      InteractionType counter = InteractionType.fromWireName(name).orElse(null);
      if (counter == null) {
        s.problems()
            .add(
                s.property()
                    + ".counter='"
                    + name
                    + "' is unknown; expected like, view, comment, share, collect or dislike");
        counter = InteractionType.LIKE;
      }
      int shards = s.spec().shards() == null ? 4 : s.spec().shards();
      if (shards < 1 || shards > MAX_SHARDS) {
        s.problems()
            .add(s.property() + ".shards=" + shards + " must be between 1 and " + MAX_SHARDS);
      }
      return new Leaderboard(counter, shards);
    }

    @Override
    public String configName() {
      return "leaderboard";
    }

    /** The shard an item's value is kept in. */
    public int shardOf(long itemId) {
      return (int) Math.floorMod(itemId, (long) shards);
    }

    /** An item's value on the board: its counter. */
    public long value(Interactions counts) {
      return counter.countIn(counts);
    }

    /**
     * Its counter's value in interactions (the sorted sets hold it in the board's unit: thousandths
     * of the trusted counter); null for an item with none, unless pinned.
     */
    @Override
    public @Nullable Double lookUpScore(
        BoardDefinition board, Interactions counts, long createdAtMillis, Instant at, boolean pin) {
      long value = value(counts);
      // As the sorted sets: an item with none of the counter is not listed, unless pinned.
      return value > 0 || pin ? (double) value / board.countUnit() : null;
    }
  }

  /**
   * What a kind's parser reads: the configured entry, its property path, the settings every kind
   * shares (already validated or defaulted) and the list its problems go to.
   */
  record Settings(
      BoardSpec spec,
      String property,
      Duration window,
      String algorithm,
      @Nullable HotScore score,
      List<String> problems) {}

  /** The kinds by configuration name ({@code batch} when none is configured). */
  Map<String, java.util.function.Function<Settings, BoardKind>> PARSERS =
      Map.of(
          "batch", s -> new Batch(),
          "live", Live::from,
          "window", Window::from,
          "leaderboard", Leaderboard::from);

  /**
   * The parser of a configured board's type, which reads and validates the kind's own settings.
   *
   * @return null when the type is unknown (a problem naming it was added)
   */
  static java.util.function.@Nullable Function<Settings, BoardKind> parser(
      BoardSpec spec, String property, List<String> problems) {
    String type = spec.type() == null ? "batch" : spec.type().toLowerCase(java.util.Locale.ROOT);
    var parser = PARSERS.get(type);
    if (parser == null) {
      problems.add(
          property
              + ".type='"
              + spec.type()
              + "' is unknown; expected batch, window, leaderboard or live");
    }
    return parser;
  }

  private static @Nullable Double scoreInWindow(
      BoardDefinition board, Interactions counts, long createdAtMillis, Instant at, boolean pin) {
    long windowStart = at.minus(board.window()).toEpochMilli();
    boolean inWindow = createdAtMillis >= windowStart && createdAtMillis <= at.toEpochMilli();
    return pin || inWindow ? board.scoreAt(counts, createdAtMillis, at) : null;
  }
}
