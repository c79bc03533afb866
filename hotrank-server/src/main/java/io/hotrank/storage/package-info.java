/**
 * What the database engines differ in, detected once at startup: {@link
 * io.hotrank.storage.SqlDialect} answers capability questions (skip-locked row locking, inserts
 * that ignore duplicates, upserts, {@code RETURNING}) and runs the few statements no single SQL
 * text serves on H2, MySQL/MariaDB and PostgreSQL alike. Migrations live in {@code
 * db/migration/<engine>}, those written in Java (one class for every engine) in the package {@code
 * db.migration}.
 *
 * <p>Each table has one owner, a store in the capability that owns the data: {@code hr_item} and
 * {@code hr_id_sequence} in {@code item.ItemStore}, {@code hr_item_counter} in {@code
 * item.CounterStore}, {@code hr_user_action} in {@code event.UserActionStore}, {@code
 * hr_board_snapshot} in {@code board.publish.BoardSnapshotStore}. Stores map columns by name, bind
 * every parameter, store instants as epoch milliseconds and leave transactions to their callers.
 * They are plain components, not {@code @Repository}: {@code JdbcTemplate} translates SQL errors
 * already, and the repository proxy's lazy translator lookup, reached during shutdown, turned an
 * exception into "context has been closed already" (the graceful-shutdown flake).
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package io.hotrank.storage;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
