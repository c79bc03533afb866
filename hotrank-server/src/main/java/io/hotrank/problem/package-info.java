/**
 * The error model shared by every capability: the unchecked root {@link
 * io.hotrank.problem.HotrankException}, whose subclasses each describe their own RFC 9457 {@link
 * io.hotrank.problem.Problem} (status, type, title, detail, field errors, headers), and the
 * validation types ({@link io.hotrank.problem.Violations}, {@link
 * io.hotrank.problem.FieldViolation}) that collect every bad field of a request before refusing it.
 *
 * <p>This package depends on nothing else of hotrank, so any package may throw its exceptions
 * without a cycle; the HTTP edges ({@code io.hotrank.web}) render them in one place.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package io.hotrank.problem;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
