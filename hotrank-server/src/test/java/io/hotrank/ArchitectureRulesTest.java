package io.hotrank;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rules inside and beside the modules that {@link ModulesTest} cannot state: the error model and
 * the core algorithms depend on no framework, board internals are layered (publish, then compute
 * and read), and time is read from injected sources only. Which module may use which is declared in
 * each module's {@code package-info.java} and checked by {@link ModulesTest}.
 */
class ArchitectureRulesTest {

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
    assertThat(hotrank.contain("io.hotrank.ingest.log.EventFolder")).isTrue();
    assertThat(hotrank.contain("io.hotrank.ingest.kafka.KafkaFolder")).isTrue();
    assertThat(hotrank.contain("io.hotrank.ingest.fold.FoldApplier")).isTrue();
    assertThat(hotrank.contain("io.hotrank.realtime.RealtimeFolds")).isTrue();
  }

  @Test
  void theErrorModel_dependsOnNothingOfHotrank() {
    classes()
        .that()
        .resideInAPackage("io.hotrank.problem..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "io.hotrank.problem..", "java..", "org.jspecify..", "org.springframework.modulith..")
        .check(hotrank);
  }

  /**
   * Boards and realtime boards read items through the interfaces made for them (cards, counter
   * pages), not through the stores of the item tables, whose owner alone writes them.
   */
  @Test
  void boards_readItemsThroughTheirInterfaces_notTheItemStores() {
    noClasses()
        .that()
        .resideInAnyPackage("io.hotrank.board..", "io.hotrank.realtime..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.hotrank.item.CounterStore")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.hotrank.item.ItemStore")
        .check(hotrank);
  }

  /**
   * Inside boards: the API package knows no sub-package; publishing (local layer, Redis, snapshot
   * table, replication, the controls' table) knows neither computing, reading nor the controls'
   * service; computing, reading and controls all build on publishing and not on each other.
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
        .layer("control")
        .definedBy("io.hotrank.board.control..")
        .whereLayer("read")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("control")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("compute")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("publish")
        .mayOnlyBeAccessedByLayers("compute", "read", "control")
        .check(hotrank);
  }

  /**
   * Inside ingest: the API package (the event source interface, folds, listeners) knows no
   * sub-package; what every source folds with ({@code fold}) knows no source; the sources ({@code
   * log}, {@code kafka}) build on it and not on each other, so that a new source is one more
   * package beside them.
   */
  @Test
  void ingestSubPackages_areLayered() {
    layeredArchitecture()
        .consideringOnlyDependenciesInAnyPackage("io.hotrank.ingest..")
        .layer("api")
        .definedBy("io.hotrank.ingest")
        .layer("fold")
        .definedBy("io.hotrank.ingest.fold..")
        .layer("log")
        .definedBy("io.hotrank.ingest.log..")
        .layer("kafka")
        .definedBy("io.hotrank.ingest.kafka..")
        .whereLayer("log")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("kafka")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("fold")
        .mayOnlyBeAccessedByLayers("log", "kafka")
        .check(hotrank);
  }

  /**
   * Time comes from the injected {@code Clock} and {@code Ticker} (tests set them); only the {@code
   * time} module reads the system's clocks.
   */
  @Test
  void code_readsTimeOnlyFromInjectedSources() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank..")
        .and()
        .resideOutsideOfPackage("io.hotrank.time..")
        .should()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(java.time.Clock.class, "systemUTC")
        .orShould()
        .callMethod(java.time.Clock.class, "systemDefaultZone")
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
