package io.hotrank.support;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hotrank.storage.SqlDialect;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A connection pool to one {@link TestDatabase}, open for the test class that registers it, in the
 * style of db-scheduler's compatibility tests: the same Flyway migrations users get, and a session
 * time zone other than UTC forced on every connection. Each engine's subclass of a JDBC contract
 * registers one as a static field:
 *
 * <pre>{@code
 * @RegisterExtension static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.H2);
 * }</pre>
 *
 * <p>The class is skipped (disabled, its tests reported as skipped) when the engine is not
 * available. Otherwise, before its tests, it notes the engine for the {@link TestEngines} report,
 * opens the pool, detects the dialect and migrates; after them it closes the pool. The accessors
 * are valid in between.
 */
public final class MigratedDatabase
    implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {

  private final TestDatabase database;
  private @Nullable HikariDataSource dataSource;
  private @Nullable SqlDialect dialect;
  private @Nullable JdbcTemplate jdbc;
  private @Nullable TransactionTemplate tx;

  public MigratedDatabase(TestDatabase database) {
    this.database = database;
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return database.isAvailable()
        ? ConditionEvaluationResult.enabled(database.engine() + " available")
        : ConditionEvaluationResult.disabled(database.skipReason());
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    TestEngines.exercised(database.engine());
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(database.url());
    config.setUsername(database.user());
    config.setPassword(database.password());
    config.setMaximumPoolSize(12);
    config.setConnectionInitSql(database.setSessionTimeZone());
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED"); // as application.yml sets it
    config.setPoolName("compat-" + database.engine());
    dataSource = new HikariDataSource(config);
    dialect = SqlDialect.detect(dataSource);
    dialect.flyway(dataSource).load().migrate();
    jdbc = new JdbcTemplate(dataSource);
    tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (dataSource != null) {
      dataSource.close();
    }
  }

  /** The engine, with what it must report. */
  public TestDatabase database() {
    return database;
  }

  public DataSource dataSource() {
    return opened(dataSource);
  }

  /** The dialect detected on the engine. */
  public SqlDialect dialect() {
    return opened(dialect);
  }

  public JdbcTemplate jdbc() {
    return opened(jdbc);
  }

  /** Transactions on the pool; its transaction manager serves those that need one. */
  public TransactionTemplate tx() {
    return opened(tx);
  }

  private <T> T opened(@Nullable T value) {
    if (value == null) {
      throw new IllegalStateException(database.engine() + " is open only while its class runs");
    }
    return value;
  }
}
