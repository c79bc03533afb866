/**
 * The embedded default: with no Redis and no datasource configured, a real Redis binary on a free
 * loopback port and an H2 file database under {@code hotrank.data-dir}, filled in before Spring
 * Boot configures either. Knows no capability.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package io.hotrank.embedded;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
