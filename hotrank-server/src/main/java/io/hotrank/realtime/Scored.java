package io.hotrank.realtime;

/** An item and its score on a realtime board, as Redis holds it. */
record Scored(long itemId, double score) {}
