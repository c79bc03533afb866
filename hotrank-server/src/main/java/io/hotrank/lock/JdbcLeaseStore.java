package io.hotrank.lock;

import io.hotrank.storage.SqlDialect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Leases in the database table {@code hr_lease}, one row per name kept after release (its fence
 * counter only grows). Every expiry comparison reads the database's clock inside the statement
 * ({@link SqlDialect#nowMillis()}), never this instance's, so instances with skewed clocks agree.
 * Acquire, renew and release are one statement each; the first acquire of a name in this process
 * also creates its row if absent.
 */
public final class JdbcLeaseStore implements LeaseStore {

  private final JdbcTemplate jdbc;
  private final SqlDialect dialect;
  private final InstanceId instance;
  private final LiveTokens live = new LiveTokens();
  private final String now;
  private final Set<String> rowsKnown = ConcurrentHashMap.newKeySet();

  public JdbcLeaseStore(JdbcTemplate jdbc, SqlDialect dialect, InstanceId instance) {
    this.jdbc = jdbc;
    this.dialect = dialect;
    this.instance = instance;
    this.now = dialect.nowMillis();
  }

  @Override
  public String kind() {
    return "jdbc";
  }

  @Override
  public Optional<Lease> tryAcquire(String name, Duration ttl, long cycle) {
    return live.acquiring(name, () -> acquire(name, ttl, cycle));
  }

  private Optional<Lease> acquire(String name, Duration ttl, long cycle) {
    ensureRow(name);
    String token = instance.newToken();
    live.add(name, token);
    String own = instance.ownTokens();
    String earlier = instance.takeoverTokens();
    List<String> counted = live.of(name);
    // Free; or held by a grant of this process it no longer counts on (released or lost, the
    // release never recorded); or, for an exclusive instance id, by its earlier, dead process.
    // Either way the new fence refuses whatever that grant's holder might still write.
    StringBuilder free = new StringBuilder("(expires_at <= " + now);
    List<Object> args = new ArrayList<>(List.of(token, LeaseStore.ttlMillis(ttl), cycle, name));
    free.append(" OR (LEFT(owner, ?) = ? AND owner NOT IN (")
        .append(SqlDialect.placeholders(counted.size()))
        .append("))");
    args.addAll(List.of(own.length(), own));
    args.addAll(counted);
    if (!earlier.isEmpty()) {
      free.append(" OR (LEFT(owner, ?) = ? AND LEFT(owner, ?) <> ?)");
      args.addAll(List.of(earlier.length(), earlier, own.length(), own));
    }
    free.append(')');
    args.addAll(List.of(cycle > 0 ? cycle : Long.MAX_VALUE, cycle, CYCLE_LEAD_LIMIT.toMillis()));
    // The fence: the counter plus one, never below the database's clock in microseconds (as in
    // Redis), so tokens keep growing when a job moves between stores.
    OptionalLong fence;
    try {
      fence =
          dialect.advanceWhere(
              jdbc,
              "hr_lease",
              "fence",
              "GREATEST(fence + 1, " + now + " * 1000)",
              "owner = ?, expires_at = " + now + " + ?, cycle = GREATEST(cycle, ?)",
              "name = ? AND " + free + " AND cycle < ? AND ? <= " + now + " + ?",
              args.toArray());
    } catch (RuntimeException e) {
      // Granted or not, no work of this process runs under it: the caller got no lease.
      live.remove(name, token);
      throw e;
    }
    if (fence.isEmpty()) {
      live.remove(name, token);
      return Optional.empty();
    }
    return Optional.of(new Lease(name, token, fence.getAsLong()));
  }

  @Override
  public boolean claimCycle(Lease lease, long cycle) {
    return jdbc.update(
            "UPDATE hr_lease SET cycle = ? WHERE name = ? AND owner = ? AND expires_at > "
                + now
                + " AND cycle < ? AND ? <= "
                + now
                + " + ?",
            cycle,
            lease.name(),
            lease.token(),
            cycle,
            cycle,
            CYCLE_LEAD_LIMIT.toMillis())
        == 1;
  }

  @Override
  public boolean renew(Lease lease, Duration ttl) {
    return jdbc.update(
            "UPDATE hr_lease SET expires_at = "
                + now
                + " + ? WHERE name = ? AND owner = ? AND expires_at > "
                + now,
            LeaseStore.ttlMillis(ttl),
            lease.name(),
            lease.token())
        == 1;
  }

  @Override
  public boolean release(Lease lease) {
    try {
      return jdbc.update(
              "UPDATE hr_lease SET owner = '', expires_at = 0 WHERE name = ? AND owner = ?",
              lease.name(),
              lease.token())
          == 1;
    } finally {
      live.remove(lease.name(), lease.token());
    }
  }

  @Override
  public void forget(Lease lease) {
    live.remove(lease.name(), lease.token());
  }

  @Override
  public long nowMillis() {
    return dialect.readNow(jdbc);
  }

  @Override
  public LeaseState inspect(String name) {
    return jdbc
        .query(
            "SELECT owner, fence, expires_at - " + now + ", cycle FROM hr_lease WHERE name = ?",
            (row, i) -> {
              long left = Math.max(0, row.getLong(3));
              String owner = row.getString(1);
              boolean held = owner != null && !owner.isEmpty() && left > 0;
              return new LeaseState(
                  name,
                  held ? new Lease(name, owner, 0).instance() : null,
                  row.getLong(2),
                  held ? left : 0,
                  row.getLong(4));
            },
            name)
        .stream()
        .findFirst()
        .orElse(new LeaseState(name, null, 0, 0, 0));
  }

  /** Creates the name's row, free, if absent. */
  private void ensureRow(String name) {
    if (rowsKnown.contains(name)) {
      return;
    }
    dialect.insertIgnoringDuplicate(
        jdbc, "hr_lease", "name, owner, fence, expires_at, cycle", name, "", 0L, 0L, 0L);
    rowsKnown.add(name);
  }
}
