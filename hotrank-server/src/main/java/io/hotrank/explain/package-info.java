/**
 * Why an item is where it is on a board: its rank or why it is not listed, and every part of its
 * score for the board's kind and algorithm, with the operator's control, recomputed from what the
 * item holds now at the instant the served version was computed ({@code GET
 * /api/v1/boards/{name}/items/{itemId}/explain}). Builds on boards, items and the realtime boards'
 * buckets; reads only.
 */
@ApplicationModule(allowedDependencies = {"board", "item", "realtime", "web"})
@NullMarked
package io.hotrank.explain;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
