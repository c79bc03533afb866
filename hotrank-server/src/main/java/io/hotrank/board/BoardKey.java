package io.hotrank.board;

import org.jspecify.annotations.Nullable;

/**
 * What a stored board key names: a board, or one segment board of a family, stored under {@code
 * <name>/<segment>} ({@link BoardSnapshot#key}). Board names have no slash, so the first one splits
 * the key; a segment may hold further characters a name may not.
 *
 * @param board the board's (or family's) name
 * @param segment the segment, or null for a board that is one board
 */
public record BoardKey(String board, @Nullable String segment) {

  /** Splits a stored key. */
  public static BoardKey parse(String key) {
    int slash = key.indexOf('/');
    return slash < 0
        ? new BoardKey(key, null)
        : new BoardKey(key.substring(0, slash), key.substring(slash + 1));
  }
}
