package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.modulith.ApplicationModule.Type;
import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The one list of modules: each top-level package under {@code io.hotrank} is a Spring Modulith
 * module whose {@code package-info.java} declares the modules it may use ({@code
 * allowedDependencies}; {@code problem} and {@code time} are shared by all). Other modules may use
 * only the public types of a module's root package; its sub-packages are internal. {@code
 * hotrank-core} ({@code io.hotrank.core}) is a plain library, not a module.
 *
 * <p>The module overview in {@code docs/modules/} is generated from the same model. When this test
 * says it is stale, regenerate it with {@code ./mvnw test -pl hotrank-server -am -Dtest=ModulesTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dhotrank.write-module-docs=true} and commit the result.
 */
class ModulesTest {

  static final ApplicationModules MODULES =
      ApplicationModules.of(
          HotrankApplication.class, JavaClass.Predicates.resideInAPackage("io.hotrank.core.."));

  private static final Path DOCS = Path.of("..", "docs", "modules");

  @Test
  void modules_keepTheirInternalsAndDeclaredDependencies() {
    assertThat(MODULES.stream().map(ApplicationModule::getIdentifier).map(Object::toString))
        .contains("board", "item", "task", "feed");
    MODULES.verify();
  }

  /** A module that does not declare what it may use would accept any dependency. */
  @Test
  void everyModule_declaresItsDependencies() {
    List<String> undeclared =
        MODULES.stream()
            .filter(m -> declaredDependencies(m) == null)
            .map(m -> m.getIdentifier().toString())
            .toList();
    assertThat(undeclared).as("modules without @ApplicationModule(allowedDependencies)").isEmpty();
  }

  @Test
  void moduleDocs_matchTheCode() throws IOException {
    Path generated = Files.createTempDirectory("hotrank-module-docs");
    write(generated);
    if (Boolean.getBoolean("hotrank.write-module-docs")) {
      replaceContents(DOCS, generated);
    }
    Map<String, String> committed = contents(DOCS);
    Map<String, String> fresh = contents(generated);
    String stale =
        "docs/modules is stale: regenerate it with -Dhotrank.write-module-docs=true (see"
            + " ModulesTest's javadoc)";
    assertThat(committed.keySet()).as(stale).isEqualTo(fresh.keySet());
    fresh.forEach(
        (file, text) -> assertThat(committed.get(file)).as(stale + ": " + file).isEqualTo(text));
  }

  // ---------------------------------------------------------------- generation

  private static void write(Path folder) throws IOException {
    new Documenter(MODULES, Documenter.Options.defaults().withOutputFolder(folder.toString()))
        .writeModulesAsPlantUml()
        .writeIndividualModulesAsPlantUml()
        .writeModuleCanvases(
            Documenter.CanvasOptions.defaults()
                .groupingBy(
                    "HTTP", Documenter.CanvasOptions.Grouping.isAnnotatedWith(RestController.class))
                .groupingBy("Stores", Documenter.CanvasOptions.Grouping.nameMatching(".*Store")));
    Files.writeString(folder.resolve("README.md"), overview(), StandardCharsets.UTF_8);
    try (Stream<Path> diagrams = Files.list(folder)) {
      for (Path diagram : diagrams.filter(p -> p.toString().endsWith(".puml")).toList()) {
        Files.writeString(diagram, relationsSorted(Files.readString(diagram)));
      }
    }
  }

  /**
   * The Documenter writes a diagram's relations in hash order, which changes from run to run: each
   * block of {@code Rel(...)} lines is sorted so that the committed files are stable.
   */
  static String relationsSorted(String diagram) {
    List<String> out = new ArrayList<>();
    List<String> block = new ArrayList<>();
    for (String line : diagram.split("\n", -1)) {
      if (line.strip().startsWith("Rel(")) {
        block.add(line);
        continue;
      }
      block.sort(null);
      out.addAll(block);
      block.clear();
      out.add(line);
    }
    block.sort(null);
    out.addAll(block);
    return String.join("\n", out);
  }

  /** The Markdown overview: one section per module, in dependency order. */
  static String overview() {
    StringBuilder md = new StringBuilder();
    md.append(
        """
        # Modules

        <!-- Generated by ModulesTest from the code; do not edit. -->

        Each top-level package under `io.hotrank` is a module. Other modules may use only the \
        public types of its root package (its API); its sub-packages are internal. A module may \
        use the modules its `package-info.java` lists in `@ApplicationModule(allowedDependencies)`, \
        plus the shared `problem` (errors as RFC 9457 problems) and `time` (clock and ticker). \
        `ModulesTest` enforces both and regenerates this page; `docs/design/` explains each \
        capability.

        A new capability is a new package beside these, shaped like the others: its controller \
        (**HTTP**), one store per table (**Storage**, SQL by hand, dialects from `storage`), one \
        `@ConfigurationProperties` record for its prefix (**Settings**, listed in \
        `docs/configuration.md`), one `HotrankException` subclass per refusal with its \
        `ProblemType` (**Errors**, listed in `docs/api.md`), Flyway migrations under \
        `hotrank-server/src/main/resources/db/migration`, and a `package-info.java` saying what it \
        owns and which modules it uses.

        Per module: its diagram (`module-<name>.puml`, PlantUML) and canvas (`module-<name>.adoc`: \
        beans, properties); all modules together in `components.puml`.

        """);
    for (ApplicationModule module : MODULES) {
      String id = module.getIdentifier().toString();
      String base = module.getBasePackage().getName();
      List<Class<?>> classes = classesOf(module);
      md.append("## ").append(id).append("\n\n");
      md.append("`").append(base).append("`");
      if (MODULES.getSharedModules().contains(module)) {
        md.append(" (shared by every module)");
      }
      md.append(". ");
      String[] declared = declaredDependencies(module);
      md.append("May use: ")
          .append(
              declared == null || declared.length == 0
                  ? "no other module"
                  : String.join(", ", new TreeSet<>(Arrays.asList(declared))))
          .append(". Used by: ")
          .append(orNone(usersOf(module)))
          .append(".\n\n");
      appendList(md, "API", apiTypes(module, classes));
      appendList(md, "HTTP", http(classes));
      appendList(
          md, "Storage", names(classes.stream().filter(c -> c.getSimpleName().endsWith("Store"))));
      appendList(md, "Settings", settings(classes));
      appendList(md, "Errors", errors(classes));
      appendList(md, "Internal packages", internalPackages(module, classes));
      md.append("\nDiagram: [module-")
          .append(id)
          .append(".puml](module-")
          .append(id)
          .append(".puml). Canvas: [module-")
          .append(id)
          .append(".adoc](module-")
          .append(id)
          .append(".adoc).\n\n");
    }
    return md.toString().stripTrailing() + "\n";
  }

  private static String @org.jspecify.annotations.Nullable [] declaredDependencies(
      ApplicationModule module) {
    Package pkg = packageOf(module.getBasePackage().getName());
    org.springframework.modulith.ApplicationModule annotation =
        pkg == null
            ? null
            : pkg.getAnnotation(org.springframework.modulith.ApplicationModule.class);
    if (annotation == null || annotation.type() == Type.OPEN) {
      return null;
    }
    String[] declared = annotation.allowedDependencies();
    return declared.length == 1
            && declared[0].equals(org.springframework.modulith.ApplicationModule.OPEN_TOKEN)
        ? null
        : declared;
  }

  private static @org.jspecify.annotations.Nullable Package packageOf(String name) {
    try {
      Class.forName(name + ".package-info");
    } catch (ClassNotFoundException e) {
      return null;
    }
    return ModulesTest.class.getClassLoader().getDefinedPackage(name);
  }

  private static List<String> usersOf(ApplicationModule module) {
    return MODULES.stream()
        .filter(other -> !other.equals(module))
        .filter(
            other -> other.getDirectDependencies(MODULES).uniqueModules().anyMatch(module::equals))
        .map(other -> other.getIdentifier().toString())
        .sorted()
        .toList();
  }

  private static List<Class<?>> classesOf(ApplicationModule module) {
    String base = module.getBasePackage().getName();
    return module.getBasePackage().stream()
        .map(JavaClass::getName)
        .filter(name -> !name.contains("$") && !name.endsWith("package-info"))
        .filter(name -> name.startsWith(base + "."))
        .sorted()
        .<Class<?>>map(ModulesTest::load)
        .toList();
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, ModulesTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> apiTypes(ApplicationModule module, List<Class<?>> classes) {
    String base = module.getBasePackage().getName();
    return names(
        classes.stream()
            .filter(c -> c.getPackageName().equals(base))
            .filter(c -> Modifier.isPublic(c.getModifiers()))
            .filter(c -> !HotrankException.class.isAssignableFrom(c))
            .filter(c -> !c.isAnnotationPresent(ConfigurationProperties.class))
            .filter(c -> !c.isAnnotationPresent(RestController.class)));
  }

  private static List<String> http(List<Class<?>> classes) {
    List<String> routes = new ArrayList<>();
    for (Class<?> c : classes) {
      if (!c.isAnnotationPresent(RestController.class)) {
        continue;
      }
      RequestMapping root = AnnotatedElementUtils.findMergedAnnotation(c, RequestMapping.class);
      String prefix = root == null || root.path().length == 0 ? "" : root.path()[0];
      for (Method method :
          Stream.of(c.getDeclaredMethods())
              .sorted(Comparator.comparing(Method::toGenericString))
              .toList()) {
        RequestMapping mapping =
            AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
        if (mapping == null) {
          continue;
        }
        String verbs =
            mapping.method().length == 0
                ? "ANY"
                : String.join("/", Stream.of(mapping.method()).map(Enum::name).sorted().toList());
        String[] paths = mapping.path().length == 0 ? new String[] {""} : mapping.path();
        for (String path : paths) {
          routes.add("`" + verbs + " " + prefix + path + "` (" + c.getSimpleName() + ")");
        }
      }
    }
    return routes.stream().distinct().sorted().toList();
  }

  private static List<String> settings(List<Class<?>> classes) {
    return classes.stream()
        .filter(c -> c.isAnnotationPresent(ConfigurationProperties.class))
        .map(
            c -> {
              ConfigurationProperties p = c.getAnnotation(ConfigurationProperties.class);
              String prefix = p.prefix().isEmpty() ? p.value() : p.prefix();
              return "`" + prefix + ".*` (" + c.getSimpleName() + ")";
            })
        .sorted()
        .toList();
  }

  private static List<String> errors(List<Class<?>> classes) {
    List<String> errors = new ArrayList<>();
    for (Class<?> c : classes) {
      for (Field field : c.getDeclaredFields()) {
        if (field.getType() == ProblemType.class && Modifier.isStatic(field.getModifiers())) {
          field.setAccessible(true);
          try {
            ProblemType type = (ProblemType) field.get(null);
            errors.add("`" + type.slug() + "` " + type.status() + " (" + c.getSimpleName() + ")");
          } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    }
    return errors.stream().distinct().sorted().toList();
  }

  private static List<String> internalPackages(ApplicationModule module, List<Class<?>> classes) {
    String base = module.getBasePackage().getName();
    return classes.stream()
        .map(Class::getPackageName)
        .filter(p -> !p.equals(base))
        .distinct()
        .sorted()
        .map(p -> "`" + p + "`")
        .toList();
  }

  private static List<String> names(Stream<Class<?>> classes) {
    return classes.map(Class::getSimpleName).sorted().toList();
  }

  private static String orNone(List<String> items) {
    return items.isEmpty() ? "none" : String.join(", ", items);
  }

  private static void appendList(StringBuilder md, String title, List<String> items) {
    if (!items.isEmpty()) {
      md.append("- **").append(title).append("**: ").append(String.join(", ", items)).append('\n');
    }
  }

  // ---------------------------------------------------------------- files

  private static Map<String, String> contents(Path folder) throws IOException {
    Map<String, String> files = new TreeMap<>();
    if (!Files.isDirectory(folder)) {
      return files;
    }
    try (Stream<Path> paths = Files.list(folder)) {
      paths
          .filter(Files::isRegularFile)
          .forEach(
              p -> {
                try {
                  files.put(p.getFileName().toString(), Files.readString(p));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
    return files;
  }

  private static void replaceContents(Path target, Path source) throws IOException {
    Files.createDirectories(target);
    try (Stream<Path> old = Files.list(target)) {
      for (Path p : old.toList()) {
        Files.delete(p);
      }
    }
    try (Stream<Path> fresh = Files.list(source)) {
      for (Path p : fresh.toList()) {
        Files.copy(p, target.resolve(p.getFileName()));
      }
    }
  }
}
