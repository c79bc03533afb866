/**
 * Running hotrank: health indicators that log a layer's outage once per change of state, static
 * export of boards to files a web server can serve, and demo traffic. May use any capability's API;
 * none uses it.
 */
@ApplicationModule(allowedDependencies = {"board", "event", "ingest", "item", "redis"})
@NullMarked
package io.hotrank.ops;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
