/**
 * Ranking structures: {@link io.hotrank.core.topn.BoundedTopN}, a min-heap keeping the best N of a
 * stream in O(N) memory, and {@link io.hotrank.core.topn.KWayMerge} of sorted runs. Plain Java; not
 * thread-safe unless a class says so.
 */
@NullMarked
package io.hotrank.core.topn;

import org.jspecify.annotations.NullMarked;
