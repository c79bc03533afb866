package io.hotrank.bench.tasks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;

/**
 * A database the schedulers run on: the bench's own database on the local PostgreSQL or MariaDB
 * server, created by the driver script and never shared with the application.
 *
 * <p>Environment: {@code HOTRANK_BENCH_PGHOST} (127.0.0.1), {@code HOTRANK_BENCH_PGPORT} (5432),
 * {@code HOTRANK_BENCH_PGUSER} (postgres), {@code PGPASSWORD}, {@code HOTRANK_BENCH_MARIADB_HOST}
 * (127.0.0.1), {@code HOTRANK_BENCH_MARIADB_PORT} (3306), {@code HOTRANK_BENCH_MARIADB_USER}
 * (root), {@code MYSQL_PWD}, {@code HOTRANK_BENCH_TASKS_DATABASE} (hotrank_bench_tasks, on both).
 */
public record BenchDb(
    Kind kind, String host, int port, String database, String user, String password) {

  /** The database servers the bench knows. */
  public enum Kind {
    POSTGRESQL("postgresql", "PostgreSQL"),
    MARIADB("mariadb", "MariaDB");

    /** The name on command lines. */
    public final String key;

    /** The name in the report. */
    public final String label;

    Kind(String key, String label) {
      this.key = key;
      this.label = label;
    }

    static Kind of(String key) {
      return Arrays.stream(values())
          .filter(k -> k.key.equals(key.strip().toLowerCase(Locale.ROOT)))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("Unknown database: " + key));
    }
  }

  /** The bench database of {@code kind}, from the environment. */
  static BenchDb fromEnvironment(Kind kind) {
    String database = env("HOTRANK_BENCH_TASKS_DATABASE", "hotrank_bench_tasks");
    return switch (kind) {
      case POSTGRESQL ->
          new BenchDb(
              kind,
              env("HOTRANK_BENCH_PGHOST", "127.0.0.1"),
              Integer.parseInt(env("HOTRANK_BENCH_PGPORT", "5432")),
              database,
              env("HOTRANK_BENCH_PGUSER", "postgres"),
              env("PGPASSWORD", null));
      case MARIADB ->
          new BenchDb(
              kind,
              env("HOTRANK_BENCH_MARIADB_HOST", "127.0.0.1"),
              Integer.parseInt(env("HOTRANK_BENCH_MARIADB_PORT", "3306")),
              database,
              env("HOTRANK_BENCH_MARIADB_USER", "root"),
              env("MYSQL_PWD", null));
    };
  }

  public boolean isPostgres() {
    return kind == Kind.POSTGRESQL;
  }

  public String jdbcUrl() {
    return switch (kind) {
      case POSTGRESQL -> "jdbc:postgresql://" + host + ":" + port + "/" + database;
      case MARIADB -> "jdbc:mariadb://" + host + ":" + port + "/" + database;
    };
  }

  /**
   * A pool of {@code size} connections, all opened up front so that connecting is not part of any
   * measured period.
   */
  HikariDataSource pool(String name, int size) {
    return pool(name, size, false);
  }

  /**
   * {@link #pool(String, int)}, its connections at {@code READ COMMITTED} when {@code
   * readCommitted} (hotrank's instances: the service's application.yml sets its pool so), else at
   * the server's default.
   */
  HikariDataSource pool(String name, int size, boolean readCommitted) {
    HikariConfig hikari = new HikariConfig();
    if (readCommitted) {
      hikari.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    hikari.setJdbcUrl(jdbcUrl());
    hikari.setUsername(user);
    if (password != null) {
      hikari.setPassword(password);
    }
    hikari.setMaximumPoolSize(size);
    hikari.setMinimumIdle(size);
    hikari.setConnectionTimeout(10_000);
    hikari.setPoolName(name);
    if (isPostgres()) {
      // Names the instance's sessions in pg_stat_activity while a run is looked at.
      hikari.addDataSourceProperty("ApplicationName", name);
    }
    HikariDataSource dataSource = new HikariDataSource(hikari);
    // Hikari fills the pool in the background; wait for it so READY means connected.
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (dataSource.getHikariPoolMXBean().getTotalConnections() < size
        && System.nanoTime() < deadline) {
      sleepQuietly(10);
    }
    return dataSource;
  }

  /** A plain connection outside any pool: closing it ends its server session. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl(), user, password == null ? "" : password);
  }

  /** The server's version, e.g. "15.20" or "10.11.19-MariaDB". */
  String serverVersion() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(isPostgres() ? "SHOW server_version" : "SELECT version()")) {
      rs.next();
      return rs.getString(1).replaceFirst(" .*", "");
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
