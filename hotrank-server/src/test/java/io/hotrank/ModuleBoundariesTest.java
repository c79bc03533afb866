package io.hotrank;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the package structure one that new capabilities can join without cycles: no cycle between
 * top-level packages; the shared parts (problem, time, storage, cache, hotkey, limit, web,
 * embedded, lock, job, task) know no capability; capabilities are layered (items, then events and
 * boards, then ops); and a board sub-package is internal to boards, which are themselves layered
 * (publish, then compute and read).
 */
class ModuleBoundariesTest {

  private static final String[] CAPABILITIES = {
    "io.hotrank.item..",
    "io.hotrank.event..",
    "io.hotrank.board..",
    "io.hotrank.ingest..",
    "io.hotrank.realtime..",
    "io.hotrank.feed..",
    "io.hotrank.ops.."
  };

  private static JavaClasses hotrank;

  @BeforeAll
  static void importClasses() {
    hotrank =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.hotrank");
    // A rule over no classes would pass whatever the code does: make sure every layer is in.
    assertThat(hotrank.contain("io.hotrank.board.read.BoardReader")).isTrue();
    assertThat(hotrank.contain("io.hotrank.board.publish.BoardPublisher")).isTrue();
    assertThat(hotrank.contain("io.hotrank.board.compute.BoardComputer")).isTrue();
    assertThat(hotrank.contain("io.hotrank.problem.HotrankException")).isTrue();
    assertThat(hotrank.contain("io.hotrank.core.topn.BoundedTopN")).isTrue();
    assertThat(hotrank.contain("io.hotrank.lock.JdbcLeaseStore")).isTrue();
    assertThat(hotrank.contain("io.hotrank.job.JobScheduler")).isTrue();
    assertThat(hotrank.contain("io.hotrank.task.TaskEngine")).isTrue();
    assertThat(hotrank.contain("io.hotrank.ingest.EventFolder")).isTrue();
    assertThat(hotrank.contain("io.hotrank.realtime.RealtimeFolds")).isTrue();
  }

  @Test
  void topLevelPackages_formNoCycle() {
    slices().matching("io.hotrank.(*)..").should().beFreeOfCycles().check(hotrank);
  }

  @Test
  void sharedParts_knowNoCapability() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.hotrank.problem..",
            "io.hotrank.time..",
            "io.hotrank.storage..",
            "io.hotrank.cache..",
            "io.hotrank.hotkey..",
            "io.hotrank.limit..",
            "io.hotrank.web..",
            "io.hotrank.embedded..",
            "io.hotrank.lock..",
            "io.hotrank.job..",
            "io.hotrank.task..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CAPABILITIES)
        .check(hotrank);
  }

  /** Leases know nothing of what runs under them; jobs build on leases. */
  @Test
  void leases_knowNoJob() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.lock..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.hotrank.job..")
        .check(hotrank);
  }

  /** Jobs know neither engine beside their own; the task platform builds on jobs. */
  @Test
  void jobs_knowNoTask() {
    noClasses()
        .that()
        .resideInAnyPackage("io.hotrank.job..", "io.hotrank.lock..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.hotrank.task..")
        .check(hotrank);
  }

  @Test
  void theErrorModel_dependsOnNothingOfHotrank() {
    classes()
        .that()
        .resideInAPackage("io.hotrank.problem..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("io.hotrank.problem..", "java..", "org.jspecify..")
        .check(hotrank);
  }

  @Test
  void items_dependOnNoOtherCapability() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.item..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.hotrank.event..",
            "io.hotrank.board..",
            "io.hotrank.ingest..",
            "io.hotrank.realtime..",
            "io.hotrank.ops..")
        .check(hotrank);
  }

  /**
   * The event path is layered: events (types, validation), then the log and its folder (ingest),
   * then the Redis boards the fold feeds (realtime); boards know none of them, and realtime boards
   * reach boards through the board API only.
   */
  @Test
  void theEventPath_isLayered() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.ingest..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.hotrank.board..", "io.hotrank.realtime..", "io.hotrank.ops..")
        .check(hotrank);
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.realtime..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.hotrank.ops..")
        .check(hotrank);
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.board..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.hotrank.ingest..", "io.hotrank.realtime..")
        .check(hotrank);
  }

  @Test
  void eventsAndBoards_knowNeitherEachOtherNorOps() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.event..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.hotrank.board..", "io.hotrank.ops..")
        .check(hotrank);
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.board..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.hotrank.event..", "io.hotrank.ops..")
        .check(hotrank);
  }

  /**
   * Outside {@code io.hotrank.board..}, only the API package {@code io.hotrank.board} may be used;
   * its sub-packages are internals, public only so that they can call each other.
   */
  @Test
  void boardSubPackages_areInternalToBoards() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.hotrank.board..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.hotrank.board.publish..", "io.hotrank.board.compute..", "io.hotrank.board.read..")
        .check(hotrank);
  }

  /**
   * Inside boards: the API package knows no sub-package; publishing (local layer, Redis, snapshot
   * table, replication) knows neither computing nor reading; computing and reading both build on
   * publishing and not on each other.
   */
  @Test
  void boardSubPackages_areLayered() {
    layeredArchitecture()
        .consideringOnlyDependenciesInAnyPackage("io.hotrank.board..")
        .layer("api")
        .definedBy("io.hotrank.board")
        .layer("publish")
        .definedBy("io.hotrank.board.publish..")
        .layer("compute")
        .definedBy("io.hotrank.board.compute..")
        .layer("read")
        .definedBy("io.hotrank.board.read..")
        .whereLayer("read")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("compute")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("publish")
        .mayOnlyBeAccessedByLayers("compute", "read")
        .check(hotrank);
  }

  @Test
  void capabilityCode_readsTimeOnlyFromInjectedSources() {
    noClasses()
        .that()
        .resideInAnyPackage(CAPABILITIES)
        .or()
        .resideInAnyPackage(
            "io.hotrank.cache..",
            "io.hotrank.hotkey..",
            "io.hotrank.lock..",
            "io.hotrank.job..",
            "io.hotrank.task..")
        .should()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .check(hotrank);
  }

  @Test
  void theCoreAlgorithms_useNoFramework() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.springframework..", "io.lettuce..", "java.sql..", "javax.sql..")
        .check(hotrank);
  }
}
