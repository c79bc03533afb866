/**
 * Idempotency keys on writes (the IETF draft {@code Idempotency-Key} header): the first request
 * with a key runs and its answer is kept for {@code hotrank.idempotency.retention}; a repeat with
 * the same key and the same request gets that answer again without running, a repeat with another
 * request 422, a repeat while the first still runs 409. Keys are scoped per client as the rate
 * limits see it. Kept in the database, where a write to it records the answer in its own
 * transaction ({@link io.hotrank.idempotency.IdempotentAnswers}); Redis is a read-through cache of
 * kept answers. Builds on limit (the client), redis, storage and web.
 */
@ApplicationModule(allowedDependencies = {"job", "limit", "problem", "redis", "storage", "web"})
@NullMarked
package io.hotrank.idempotency;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
