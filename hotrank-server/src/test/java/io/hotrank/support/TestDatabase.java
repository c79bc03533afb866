package io.hotrank.support;

import java.util.Optional;
import java.util.UUID;

/**
 * A database engine the JDBC contracts run on, and what each must report: where it is, how to force
 * the hostile session time zone on it, and which dialect and capabilities detection must find. H2
 * always runs, in a file database of its own per test class, as the embedded default does;
 * MariaDB/MySQL and PostgreSQL run when their {@code HOTRANK_TEST_*_URL} variable names a database
 * (see {@link TestEngines}) and are skipped otherwise.
 *
 * <p>A contract gets a migrated connection to one of these from {@link MigratedDatabase}.
 */
public enum TestDatabase {
  H2("H2", null) {
    @Override
    public String url() {
      return "jdbc:h2:file:./target/test-data/compat/h2-" + unique();
    }

    @Override
    public String user() {
      return "sa";
    }

    @Override
    public String password() {
      return "";
    }

    @Override
    public String setSessionTimeZone() {
      return "SET TIME ZONE '" + SESSION_ZONE_NAME + "'";
    }

    @Override
    public String readSessionTimeZone() {
      return "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
          + " WHERE SETTING_NAME = 'TIME ZONE'";
    }

    @Override
    public String expectedDialect() {
      return "H2";
    }

    @Override
    public boolean expectsInsertIgnoringDuplicates() {
      return false;
    }

    @Override
    public boolean expectsReturning() {
      return false;
    }
  },

  /** MariaDB, or MySQL 8 when {@code HOTRANK_TEST_MYSQL_FLAVOUR=mysql} declares one. */
  MARIADB("MariaDB/MySQL", "HOTRANK_TEST_MYSQL_URL") {
    @Override
    public String user() {
      return TestEngines.env("HOTRANK_TEST_MYSQL_USER").orElse("root");
    }

    @Override
    public String password() {
      return TestEngines.env("HOTRANK_TEST_MYSQL_PASSWORD").orElse("");
    }

    @Override
    public String setSessionTimeZone() {
      // Named zones need the server's time zone tables, which a default install lacks.
      return "SET time_zone = '+05:30'";
    }

    @Override
    public String readSessionTimeZone() {
      return "SELECT @@session.time_zone";
    }

    @Override
    public String expectedDialect() {
      return mysql() ? "MySQL" : "MariaDB";
    }

    @Override
    public boolean expectsInsertIgnoringDuplicates() {
      return true;
    }

    @Override
    public boolean expectsReturning() {
      return !mysql(); // MariaDB 10.5 and newer
    }

    /**
     * CI runs MariaDB 10.11; {@code HOTRANK_TEST_MYSQL_FLAVOUR=mysql} declares a MySQL 8 server.
     */
    private boolean mysql() {
      return TestEngines.env("HOTRANK_TEST_MYSQL_FLAVOUR")
          .filter("mysql"::equalsIgnoreCase)
          .isPresent();
    }
  },

  POSTGRES("PostgreSQL", "HOTRANK_TEST_POSTGRES_URL") {
    @Override
    public String user() {
      return TestEngines.env("HOTRANK_TEST_POSTGRES_USER").orElse("postgres");
    }

    @Override
    public String password() {
      return TestEngines.env("HOTRANK_TEST_POSTGRES_PASSWORD").orElse("");
    }

    @Override
    public String setSessionTimeZone() {
      return "SET TIME ZONE '" + SESSION_ZONE_NAME + "'";
    }

    @Override
    public String readSessionTimeZone() {
      return "SHOW TIME ZONE";
    }

    @Override
    public String expectedDialect() {
      return "PostgreSQL";
    }

    @Override
    public boolean expectsInsertIgnoringDuplicates() {
      return true;
    }

    @Override
    public boolean expectsReturning() {
      return true;
    }
  };

  /** Not UTC, and not a whole number of hours away from it. */
  public static final String SESSION_ZONE_NAME = "Asia/Kolkata";

  private final String engine;
  private final String urlVariable;

  TestDatabase(String engine, String urlVariable) {
    this.engine = engine;
    this.urlVariable = urlVariable;
  }

  /** The engine's name for the report of {@link TestEngines#exercised}. */
  public String engine() {
    return engine;
  }

  /**
   * Whether the engine can run here: always for H2, for the others when their URL variable is set.
   */
  public boolean isAvailable() {
    return urlVariable == null || TestEngines.env(urlVariable).isPresent();
  }

  /** Why the engine's tests are skipped when it is not {@linkplain #isAvailable() available}. */
  public String skipReason() {
    return engine + " skipped: " + urlVariable + " unset";
  }

  /** How the engine is reached, for the end-of-run report: its URL, or why it is not. */
  public String describe() {
    if (urlVariable == null) {
      return "always";
    }
    return TestEngines.env(urlVariable).orElse("skipped: " + urlVariable + " unset");
  }

  /**
   * The JDBC URL; a new database each call for H2.
   *
   * @throws java.util.NoSuchElementException when the engine is not available
   */
  public String url() {
    return Optional.ofNullable(urlVariable).flatMap(TestEngines::env).orElseThrow();
  }

  public abstract String user();

  public abstract String password();

  /** The statement that sets the session time zone to {@link #SESSION_ZONE_NAME} (or +05:30). */
  public abstract String setSessionTimeZone();

  /** The statement that reads the session time zone back. */
  public abstract String readSessionTimeZone();

  /** The dialect name the engine must be detected as. */
  public abstract String expectedDialect();

  /** What the engine supports, as the detected dialect must report it. */
  public boolean expectsSkipLocked() {
    return true;
  }

  public abstract boolean expectsInsertIgnoringDuplicates();

  public abstract boolean expectsReturning();

  /** A unique name for engine-local objects. */
  private static String unique() {
    return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }
}
