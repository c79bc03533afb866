/**
 * Who acts on items, as far as the platform and its operators know: actors (the events' {@code
 * userId}) with what the platform says of them (when the account was created, whether it is a bot,
 * a trust between 0 and 1) and what operators decide (flagged, with a reason). Stored in the
 * database ({@code hr_actor}); written by the platform with the ingest credentials, flagged by
 * operators on the admin API (audited).
 */
@ApplicationModule(allowedDependencies = {"audit", "item", "storage", "web"})
@NullMarked
package io.hotrank.trust;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
