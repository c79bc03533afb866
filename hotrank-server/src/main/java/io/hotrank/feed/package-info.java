/**
 * The follow graph and the feeds read from it: who follows whom (stored in the database, counts
 * cached), and cursor-paged feeds whose cursors are signed ({@link io.hotrank.core.cursor}).
 */
@ApplicationModule(allowedDependencies = {"item", "job", "redis", "storage", "web"})
@NullMarked
package io.hotrank.feed;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
