/**
 * Hot scores: {@link io.hotrank.core.score.HotScore} and its three algorithms (Hacker News, Reddit
 * hot, exponential decay), and the weights that turn interaction counts into points. Plain Java: no
 * framework, no I/O; time is passed in, never read.
 */
@NullMarked
package io.hotrank.core.score;

import org.jspecify.annotations.NullMarked;
