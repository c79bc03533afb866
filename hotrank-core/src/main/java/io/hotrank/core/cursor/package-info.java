/**
 * Opaque, tamper-evident pagination cursors: {@link io.hotrank.core.cursor.CursorCodec} signs a
 * cursor's fields with HMAC-SHA256 so that a client can hand a cursor back but cannot forge or
 * alter one. Plain Java; thread-safe.
 */
@NullMarked
package io.hotrank.core.cursor;

import org.jspecify.annotations.NullMarked;
