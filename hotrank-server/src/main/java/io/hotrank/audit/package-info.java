/**
 * The audit log: who changed what, when, why, and the state before and after. Every operator action
 * (board controls, task administration, recompute, rebuild, manual fold) and every automatic change
 * an operator must be able to trace (a control's expiry) appends one {@link
 * io.hotrank.audit.AuditEntry} through {@link io.hotrank.audit.AuditLog}, inside the transaction of
 * the change where the change has one, so that a change that rolls back leaves no entry and an
 * entry never describes a change that did not happen.
 */
@ApplicationModule(allowedDependencies = {"job", "storage", "web"})
@NullMarked
package io.hotrank.audit;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
