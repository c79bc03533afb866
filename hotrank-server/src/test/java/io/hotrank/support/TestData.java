package io.hotrank.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.springframework.util.FileSystemUtils;

/**
 * The data directories of test contexts (their embedded database, local snapshots), set with {@code
 * hotrank.data-dir} in {@code @TestPropertySource}: the embedded default reads it before dynamic
 * properties exist. A directory left by an earlier run would carry that run's event log and boards
 * into this one, where a board replayed from the log counts the old run's events too; so a test
 * class empties its own when it loads, before its context starts.
 */
public final class TestData {

  /** Where test contexts keep their data, relative to the module. */
  public static final String DIR = "target/test-data/";

  private TestData() {}

  /** Deletes {@code target/test-data/<name>}. */
  public static void empty(String name) {
    try {
      FileSystemUtils.deleteRecursively(Path.of(DIR, name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
