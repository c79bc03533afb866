/**
 * Internal to boards: operators' controls (pin, boost, block, second chance). {@link
 * io.hotrank.board.control.ControlService} validates a change, stores it with its audit entry in
 * one transaction under the board's lock row, then re-publishes the board ({@link
 * io.hotrank.board.publish.BoardPublisher#republish}) so that every instance serves it at once;
 * {@link io.hotrank.board.control.ControlExpiry} deletes lapsed controls every second and
 * re-publishes their boards; {@code BoardControlController} is the admin HTTP API. Built on
 * publish, like compute and read; the semantics are {@link io.hotrank.board.ControlsApplied}.
 */
@NullMarked
package io.hotrank.board.control;

import org.jspecify.annotations.NullMarked;
