/**
 * Interaction events: their types ({@link io.hotrank.event.EventType}, with the codes stored in the
 * event log) and the validation of a batch ({@link io.hotrank.event.EventValidator}). Accepting and
 * applying them is {@code io.hotrank.ingest}'s. Builds on items only.
 */
@ApplicationModule(allowedDependencies = {"item"})
@NullMarked
package io.hotrank.event;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
