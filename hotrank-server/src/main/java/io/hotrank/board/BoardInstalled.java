package io.hotrank.board;

/**
 * Announced, in the installing thread, each time this instance starts serving a newer version of a
 * board: computed here, or fetched from Redis or the database. Listeners (static export) must be
 * quick and must not assume events arrive in version order.
 */
public record BoardInstalled(BoardSnapshot snapshot) {}
