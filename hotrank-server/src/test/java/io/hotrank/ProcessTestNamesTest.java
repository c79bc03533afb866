package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Tags;
import org.junit.jupiter.api.Test;

/**
 * One naming scheme for the tests that start operating-system processes: a test class is tagged
 * {@code process} (run by Failsafe in {@code verify}, left out of {@code ./mvnw test}) exactly when
 * its name ends in {@code ProcessTest}, so that a name says what a test costs.
 */
class ProcessTestNamesTest {

  @Test
  void aTestClass_isTaggedProcess_exactlyWhenItsNameEndsInProcessTest() {
    JavaClasses tests =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
            .importPackages("io.hotrank");
    // A rule over no classes would pass whatever the tests are called.
    assertThat(tests.stream().filter(ProcessTestNamesTest::taggedProcess))
        .extracting(JavaClass::getSimpleName)
        .contains("TasksProcessTest", "GracefulShutdownProcessTest");

    List<String> misnamed =
        tests.stream()
            .filter(c -> taggedProcess(c) != c.getSimpleName().endsWith("ProcessTest"))
            .map(c -> c.getName() + (taggedProcess(c) ? " is tagged process" : " is not tagged"))
            .sorted()
            .toList();
    assertThat(misnamed).as("tagged process but not named *ProcessTest, or the reverse").isEmpty();
  }

  private static boolean taggedProcess(JavaClass test) {
    Stream<Tag> tags =
        Stream.concat(
            test.tryGetAnnotationOfType(Tag.class).stream(),
            test.tryGetAnnotationOfType(Tags.class).stream().flatMap(t -> Stream.of(t.value())));
    Set<String> names = tags.map(Tag::value).collect(Collectors.toSet());
    return names.contains("process");
  }
}
