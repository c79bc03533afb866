/**
 * The audit log: who changed what, when, why, and the state before and after. Every operator action
 * (board controls, task administration, recompute, rebuild, manual fold) and every automatic change
 * an operator must be able to trace (a control's expiry) appends one {@link
 * io.hotrank.audit.AuditEntry} through {@link io.hotrank.audit.AuditLog}, inside the transaction of
 * the change where the change has one, so that a change that rolls back leaves no entry and an
 * entry never describes a change that did not happen. {@link io.hotrank.audit.AuditQuery} reads it
 * newest first with a signed cursor ({@code GET /api/v1/admin/audit}, any operator), and the job
 * {@code audit-prune} deletes entries older than {@code hotrank.admin.audit-retention} every hour.
 */
@ApplicationModule(allowedDependencies = {"job", "storage", "web"})
@NullMarked
package io.hotrank.audit;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
