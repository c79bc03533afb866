package io.hotrank.audit;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of the audit log, newest first.
 *
 * @param entries the entries, by id descending
 * @param next the signed cursor of the next (older) page, or null when this is the last
 */
public record AuditPage(List<AuditEntry> entries, @Nullable String next) {}
