package io.hotrank.ingest;

import io.hotrank.event.EventType;

/**
 * One row of the event log.
 *
 * @param seq its position in the log
 * @param biz the item's biz
 * @param itemId the item's id
 * @param type what happened
 * @param userId who did it, or 0
 * @param atMillis when it happened, epoch milliseconds
 */
public record LoggedEvent(
    long seq, String biz, long itemId, EventType type, long userId, long atMillis) {}
