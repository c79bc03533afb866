package io.hotrank.board;

import java.time.Instant;

/**
 * What one run of a segmented board (a family) published: how many segment boards, and how many it
 * emptied (segments whose items all left the window or the segment), and how many rows it scanned
 * (a batch run's scan, a realtime family's rebuild; 0 for a realtime look without one).
 */
public record FamilyPublished(
    String board, Instant computedAt, int segments, int emptied, long scanned) {}
