package io.hotrank;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the capability packages layered: items know nothing of what consumes them, events build on
 * items only, boards read items but not events, and the shared parts (storage, cache) know no
 * capability. The web package maps capability exceptions to problems in one class.
 */
class ModuleBoundariesTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.hotrank");
    // A rule over no classes would pass whatever the code does: make sure both modules are in.
    assertThat(classes.contain("io.hotrank.board.BoardReader")).isTrue();
    assertThat(classes.contain("io.hotrank.core.topn.BoundedTopN")).isTrue();
  }

  @Test
  void items_dependOnNoOtherCapability() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.item..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.hotrank.event..", "io.hotrank.board..", "io.hotrank.ops..", "io.hotrank.cache..")
        .check(classes);
  }

  @Test
  void events_buildOnItemsOnly() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.event..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.hotrank.board..", "io.hotrank.ops..", "io.hotrank.cache..")
        .check(classes);
  }

  @Test
  void boards_doNotDependOnEventsOrOps() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.board..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.hotrank.event..", "io.hotrank.ops..")
        .check(classes);
  }

  @Test
  void sharedParts_knowNoCapability() {
    noClasses()
        .that()
        .resideInAnyPackage("io.hotrank.storage..", "io.hotrank.cache..", "io.hotrank.embedded..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.hotrank.item..",
            "io.hotrank.event..",
            "io.hotrank.board..",
            "io.hotrank.ops..",
            "io.hotrank.web..")
        .check(classes);
  }

  @Test
  void onlyTheProblemHandler_ofTheWebPackage_knowsCapabilities() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.web..")
        .and()
        .doNotHaveSimpleName("ProblemHandler")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.hotrank.item..", "io.hotrank.event..", "io.hotrank.board..", "io.hotrank.ops..")
        .check(classes);
  }

  @Test
  void theCoreAlgorithms_useNoFramework() {
    noClasses()
        .that()
        .resideInAPackage("io.hotrank.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.springframework..", "io.lettuce..", "java.sql..", "javax.sql..")
        .check(classes);
  }
}
