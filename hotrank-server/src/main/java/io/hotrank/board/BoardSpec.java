package io.hotrank.board;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * One entry of {@code hotrank.boards} as written in configuration; any field may be missing until
 * {@link BoardDefinition#from} validates it, which also applies the defaults.
 *
 * @param name unique board name ({@code [a-z0-9][a-z0-9_-]{0,63}}), used in URLs and Redis keys
 * @param biz the content type it ranks
 * @param algorithm {@code hacker-news} (default), {@code reddit} or {@code decay}
 * @param gravity Hacker News gravity G in {@code (P - 1) / (T + 2)^G}; default 1.5
 * @param halfLife decay half-life in {@code P * 2^(-T / halfLife)}; default 6h
 * @param weights weight of each interaction type in P; unlisted types weigh 0; default like 1
 * @param window only items created this recently are ranked; default 7d
 * @param size entries kept, 1 to 10000; default 100
 * @param refresh Spring cron (6 fields, UTC) or a macro such as {@code @hourly}; default every
 *     minute for a batch board, every second for the others (how often its read snapshot is
 *     published)
 * @param type {@code batch} (default: scored by a scan on the cron), {@code window} (the weighted
 *     events of the last {@code window}, in buckets), {@code leaderboard} (one counter's all-time
 *     value) or {@code live} (a {@code reddit} or {@code decay} board kept in order by the fold)
 * @param bucket a window board's bucket length; default 1m; the window is a whole number of them
 * @param counter a leaderboard's counter: like, view, comment, share, collect or dislike
 * @param shards a leaderboard's sorted sets, on different cluster slots; default 4
 * @param maxPins how many items operators may pin on the board at once, 0 to {@code size}; default
 *     3
 * @param segmentBy {@code tag}, {@code author} or {@code attribute:<key>}: the board is a family of
 *     segment boards, one per value; unset: one board
 * @param maxPerAuthor at most this many entries of one author on the board (or each segment board),
 *     the next best items taking their places; unset: no cap
 * @param scaleBy {@code tag}, {@code author} or {@code attribute:<key>} on an unsegmented board:
 *     each item's score is divided by {@code log10(10 + n)}, n the interactions its segment
 *     received over the board's window
 * @param trust {@code trusted} (the default: items rank by their interactions weighed by their
 *     actors) or {@code raw} (every interaction counts once)
 * @param review {@code off} (default), {@code suspicious} (a suspicious item is held off the public
 *     board until an operator approves it) or {@code required} (every item is held until approved,
 *     itself or its author)
 * @param itemUrl where an item lives on the platform, {@code {id}} (and {@code {biz}}) replaced,
 *     such as {@code https://example.org/a/{id}}: the board's feeds link each entry there; unset:
 *     the feeds' entries carry their text and no link
 * @param explain who may ask why an item is where it is ({@code GET
 *     /api/v1/boards/{name}/items/{id}/explain}): {@code public} (the default, like the board
 *     read), {@code operator} (an operator's token, any role) or {@code off}
 */
record BoardSpec(
    @Nullable String name,
    @Nullable String biz,
    @Nullable String algorithm,
    @Nullable Double gravity,
    @Nullable Duration halfLife,
    @Nullable Map<String, Double> weights,
    @Nullable Duration window,
    @Nullable Integer size,
    @Nullable String refresh,
    @Nullable String type,
    @Nullable Duration bucket,
    @Nullable String counter,
    @Nullable Integer shards,
    @Nullable Integer maxPins,
    @Nullable String segmentBy,
    @Nullable Integer maxPerAuthor,
    @Nullable String scaleBy,
    @Nullable String trust,
    @Nullable String review,
    @Nullable String itemUrl,
    @Nullable String explain) {

  /**
   * The {@code hotrank.boards} list. A list binds only from its parent prefix, so this record binds
   * {@code hotrank} and reads nothing but {@code boards}.
   *
   * @param boards the boards of this deployment; a user's list replaces the shipped default board
   */
  @ConfigurationProperties("hotrank")
  record Declared(@Nullable List<BoardSpec> boards) {
    Declared {
      boards = boards == null ? List.of() : List.copyOf(boards);
    }
  }
}
