/**
 * Rate limiting: a GCRA limiter in Redis, one script call and one round trip per decision, shared
 * by every instance.
 */
@ApplicationModule(allowedDependencies = {"redis", "web"})
@NullMarked
package io.hotrank.limit;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
