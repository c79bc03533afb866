/**
 * The hotrank service, as Spring Modulith modules: each sub-package is one module, either a
 * capability (boards, items, events, feeds...) or a shared part the capabilities build on (the
 * error model, time, storage dialects, Redis, leases and jobs).
 *
 * <p>Why modules: hotrank grows by capabilities (operator controls, a Kafka source, live boards),
 * and each should be addable without reading the rest. So a module's root package is its API and
 * its sub-packages are internal; a module's {@code package-info.java} says what it owns, why it is
 * built the way it is, and which modules it may use
 * ({@code @ApplicationModule(allowedDependencies)} is the one list; {@code problem} and {@code
 * time} are shared by all). {@code ModulesTest} checks the list and regenerates the overview in
 * {@code docs/modules/}, which shows where a new capability's HTTP, storage, settings and errors
 * go.
 */
@NullMarked
package io.hotrank;

import org.jspecify.annotations.NullMarked;
