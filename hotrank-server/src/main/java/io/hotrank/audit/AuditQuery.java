package io.hotrank.audit;

import io.hotrank.problem.InvalidRequestException;
import io.hotrank.web.Cursors;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Reads the audit log page by page, newest first, for {@code GET /api/v1/admin/audit} and the
 * console. A page's cursor is signed ({@link Cursors}) and carries the last id seen and the target
 * filter it was given out for: a cursor altered, or used with another filter, is a 400 naming
 * {@code cursor}. Pages follow ids downwards, so no entry is repeated, and entries written after
 * the first page was read (higher ids) do not show on later pages. An entry can be missed, though:
 * ids are taken when a row is inserted, not when its transaction commits, so an entry of a long
 * change (a task's, a biz's) that commits after a reader's page has gone below its id is never on
 * that reader's later pages. A reader that must see everything starts again from the first page.
 * Thread-safe.
 */
@Component
public class AuditQuery {

  /** The page size when none is asked for. */
  public static final int DEFAULT_LIMIT = 50;

  /** The largest page. */
  public static final int MAX_LIMIT = 200;

  private static final String KIND = "audit";

  private final AuditStore store;
  private final Cursors cursors;

  AuditQuery(AuditStore store, Cursors cursors) {
    this.store = store;
    this.cursors = cursors;
  }

  /**
   * A page of entries.
   *
   * @param limit 1..200, null for 50
   * @param cursor the previous page's {@code next}, or null for the first page
   * @param target null or blank for every entry; a target ({@code task:nightly}) for its entries; a
   *     target prefix followed by {@code *} ({@code board:hot/*}, {@code task:*}) for every target
   *     that starts with it
   * @throws InvalidRequestException naming {@code limit}, {@code target} or {@code cursor}
   */
  public AuditPage page(@Nullable Integer limit, @Nullable String cursor, @Nullable String target) {
    int size = limit == null ? DEFAULT_LIMIT : limit;
    if (size < 1 || size > MAX_LIMIT) {
      throw new InvalidRequestException("limit", "must be an integer from 1 to " + MAX_LIMIT);
    }
    String filter = target == null || target.isBlank() ? "" : target.strip();
    if (filter.length() > AuditLog.MAX_TARGET + 1) {
      throw new InvalidRequestException(
          "target", "must be at most " + AuditLog.MAX_TARGET + " characters");
    }
    boolean prefix = filter.endsWith("*");
    String match = prefix ? filter.substring(0, filter.length() - 1) : filter;
    if (prefix && match.contains("*")) {
      throw new InvalidRequestException(
          "target", "takes one '*', at the end (a prefix), or none (an exact target)");
    }
    long beforeId = Long.MAX_VALUE;
    List<String> fields = cursors.decode(KIND, cursor, 2);
    if (fields != null) {
      if (!fields.get(1).equals(filter)) {
        throw new InvalidRequestException(
            "cursor", "was given out for another target filter; start again without it");
      }
      beforeId = Cursors.longField(fields, 0);
    }
    List<AuditEntry> entries =
        store.page(beforeId, filter.isEmpty() ? null : match, prefix, size + 1);
    String next = null;
    if (entries.size() > size) {
      entries = entries.subList(0, size);
      next = cursors.encode(KIND, List.of(Long.toString(entries.getLast().id()), filter));
    }
    return new AuditPage(List.copyOf(entries), next);
  }
}
