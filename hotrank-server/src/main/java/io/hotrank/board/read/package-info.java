/**
 * Internal to boards: serving reads. {@link io.hotrank.board.read.BoardReader} answers from the
 * local snapshot, else Redis, else the database (through a {@code cache.TieredLoader}); the
 * controller, the servlet-filter fast path and the optional Netty read port answer alike, sharing
 * {@code BoardHttp} for windows, caching headers and conditional requests; {@code BoardPreloader}
 * fills the local layer before the instance reports ready.
 */
@NullMarked
package io.hotrank.board.read;

import org.jspecify.annotations.NullMarked;
