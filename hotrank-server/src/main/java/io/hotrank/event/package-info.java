/**
 * Interaction events: {@code POST /api/v1/events} validates a batch as a whole and applies it in
 * one transaction to the item counters, with per-user like and collect state in {@code
 * hr_user_action} ({@link io.hotrank.event.UserActionStore}). Builds on items only.
 */
@NullMarked
package io.hotrank.event;

import org.jspecify.annotations.NullMarked;
