package io.hotrank.board;

import io.hotrank.item.Item;
import java.time.Instant;

/**
 * One ranked entry of a published board, with every field the read API returns.
 *
 * @param rank 1-based position on the board
 */
public record BoardEntry(
    int rank,
    String biz,
    long itemId,
    double score,
    String title,
    long authorId,
    Instant createdAt,
    Item.Counts counts) {}
