package io.livegate.tests.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.livegate.core.Jackson;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The layering, on the classes of every module. Which package belongs to which module, and so to
 * which ring, is derived from the sources ({@link Modules#rootPackages}: each module's one root
 * package), never listed here, so a new package is held to its module's rules the day it appears.
 * The domain (modules core and scan) stays pure; its engine side (core) never reaches git or HCL; a
 * module reaches only its own ring and those inside it, and no deployable another; no packages
 * depend on each other in a cycle. The module graph itself is held by {@link ModuleGraphTest}.
 */
class ArchitectureTest {
  /** Module to the package all its main classes live in, e.g. scan to {@code io.livegate.scan}. */
  private static final Map<String, String> ROOTS = Modules.rootPackages();

  private static final String[] DOMAIN =
      Modules.DOMAIN.stream().map(ArchitectureTest::within).toArray(String[]::new);

  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // The modules' test jars, which a reactor build puts on the class path as jars.
          .withImportOption(location -> !location.contains("-tests.jar"))
          .importPackages("io.livegate");

  private static final ArchRule NO_ADAPTER_LIBRARIES =
      noClasses()
          .that()
          .resideInAnyPackage(DOMAIN)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "software.amazon.awssdk..",
              "org.jdbi..",
              "java.sql..",
              "javax.sql..",
              "java.net.http..")
          .because("AWS, JDBI, JDBC and HTTP clients belong in adapters behind the domain's ports");

  private static final ArchRule NO_PROCESSES =
      noClasses()
          .that()
          .resideInAnyPackage(DOMAIN)
          .should()
          .dependOnClassesThat()
          .belongToAnyOf(ProcessBuilder.class, Process.class, ProcessHandle.class)
          .orShould()
          .callMethodWhere(call(Runtime.class, "exec"))
          .because("the domain starts processes only through the CommandRunner port");

  /**
   * Outside the deployables (whose entry points are the composition roots) only module process
   * reads the environment: what a child process inherits and the PATH it is found on (ADR 1).
   */
  private static final ArchRule NO_PROCESS_ENVIRONMENT =
      noClasses()
          .that()
          .resideInAnyPackage(
              ROOTS.keySet().stream()
                  .filter(m -> !Modules.DEPLOYABLES.contains(m) && !m.equals("process"))
                  .map(ArchitectureTest::within)
                  .toArray(String[]::new))
          .should()
          .callMethodWhere(call(System.class, "getenv"))
          .because("environment variables are read only in each entry point's composition root");

  /** The modules on a Lambda's class path: lambdas and what its pom brings in, from the poms. */
  private static final Set<String> LAMBDA_CLASS_PATH = Modules.withDependencies("lambdas");

  private static final ArchRule ONE_OBJECT_MAPPER =
      noClasses()
          .that()
          .resideInAnyPackage(
              LAMBDA_CLASS_PATH.stream().map(ArchitectureTest::within).toArray(String[]::new))
          .and()
          .doNotBelongToAnyOf(Jackson.class)
          .should()
          .callConstructorWhere(
              DescribedPredicate.<JavaConstructorCall>describe(
                  "new ObjectMapper()",
                  call -> call.getTargetOwner().isAssignableTo(ObjectMapper.class)))
          .because("a handler JVM has one ObjectMapper, Jackson.MAPPER (ADR 6)");

  private static final ArchRule ENGINE_READS_NO_GIT_OR_HCL =
      noClasses()
          .that()
          .resideInAPackage(within("core"))
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("org.eclipse.jgit..", within("scan"))
          .because(
              "the Lambdas run the engine side without git or the HCL reader on their class path");

  /**
   * Every package below {@code io.livegate} is one slice; two that reach each other are a cycle.
   */
  private static final ArchRule NO_PACKAGE_CYCLES =
      slices()
          .matching("io.livegate.(**)")
          .should()
          .beFreeOfCycles()
          .because("a cycle makes two packages one, which no module boundary can then split");

  private static final ArchRule EVERY_CLASS_IN_A_MODULE =
      classes()
          .that()
          .resideInAPackage("io.livegate..")
          .should(
              new ArchCondition<JavaClass>("live under the root package of a module with a ring") {
                @Override
                public void check(JavaClass type, ConditionEvents events) {
                  if (moduleOf(type.getPackageName()).isEmpty()) {
                    events.add(
                        SimpleConditionEvent.violated(
                            type,
                            type.getName()
                                + " is under no module's root package "
                                + ROOTS.values()
                                + ", so no ring's rules hold it"));
                  }
                }
              });

  /** The packages of a module, as ArchUnit names them: {@code io.livegate.scan..}. */
  private static String within(String module) {
    String root = ROOTS.get(module);
    if (root == null) {
      throw new AssertionError("module " + module + " has no main sources");
    }
    return root + "..";
  }

  private static Optional<String> moduleOf(String packageName) {
    return ROOTS.entrySet().stream()
        .filter(e -> packageName.equals(e.getValue()) || packageName.startsWith(e.getValue() + "."))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  /**
   * A module's classes reach no module of an outer ring and, for a deployable, no other deployable;
   * empty when nothing is out of its reach.
   */
  private static Optional<ArchRule> reachesOnlyInnerRings(String module) {
    String[] outOfReach =
        ROOTS.keySet().stream()
            .filter(
                other ->
                    Modules.ring(other) > Modules.ring(module)
                        || (!other.equals(module)
                            && Modules.DEPLOYABLES.contains(other)
                            && Modules.DEPLOYABLES.contains(module)))
            .map(ArchitectureTest::within)
            .toArray(String[]::new);
    if (outOfReach.length == 0) {
      return Optional.empty();
    }
    return Optional.of(
        noClasses()
            .that()
            .resideInAPackage(within(module))
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(outOfReach)
            .because(
                "a module depends only on its own ring and those inside it, and deployables"
                    + " never on each other; shared code moves down a ring"));
  }

  private static DescribedPredicate<JavaMethodCall> call(Class<?> owner, String method) {
    return describe(
        owner.getSimpleName() + "." + method + "()",
        call ->
            call.getTargetOwner().isEquivalentTo(owner)
                && call.getTarget().getName().equals(method));
  }

  @Test
  void everyPackageOfEveryModuleIsInARing() {
    ROOTS.forEach(
        (module, root) -> {
          assertThat(Modules.ring(module)).as(module).isNotNegative();
          ROOTS.forEach(
              (other, otherRoot) -> {
                if (!other.equals(module)) {
                  assertThat(otherRoot + ".")
                      .as("module %s's root package lies inside module %s's", other, module)
                      .doesNotStartWith(root + ".");
                }
              });
        });
    EVERY_CLASS_IN_A_MODULE.check(CLASSES);
  }

  @Test
  void eachModuleDeclaresEveryModuleItsMainClassesUse() {
    Map<String, Set<String>> declared = new TreeMap<>();
    Modules.edges().stream()
        .filter(edge -> !edge.scope().equals("test"))
        .forEach(
            edge -> declared.computeIfAbsent(edge.from(), m -> new TreeSet<>()).add(edge.to()));
    Set<String> undeclared = new TreeSet<>();
    for (JavaClass type : CLASSES) {
      Optional<String> from = moduleOf(type.getPackageName());
      from.ifPresent(
          module ->
              type.getDirectDependenciesFromSelf().stream()
                  .map(dependency -> moduleOf(dependency.getTargetClass().getPackageName()))
                  .flatMap(Optional::stream)
                  .filter(to -> !to.equals(module))
                  .filter(to -> !declared.getOrDefault(module, Set.of()).contains(to))
                  .forEach(
                      to -> undeclared.add(module + " -> " + to + " (" + type.getName() + ")")));
    }
    assertThat(undeclared)
        .as("modules whose code uses a module their pom reaches only through another")
        .isEmpty();
  }

  @Test
  void theDomainDependsOnNoAwsSdkJdbiJdbcOrHttpClient() {
    NO_ADAPTER_LIBRARIES.check(CLASSES);
  }

  @Test
  void theDomainNeverStartsAProcess() {
    NO_PROCESSES.check(CLASSES);
  }

  @Test
  void theDomainNeverReadsTheProcessEnvironment() {
    NO_PROCESS_ENVIRONMENT.check(CLASSES);
  }

  @Test
  void theLambdaClassPathBuildsNoObjectMapperButTheSharedOne() {
    ONE_OBJECT_MAPPER.check(CLASSES);
  }

  @Test
  void theEngineSideNeverReachesGitOrTheHclReader() {
    ENGINE_READS_NO_GIT_OR_HCL.check(CLASSES);
  }

  @Test
  void eachModuleReachesOnlyItsOwnRingAndThoseInside() {
    // infra-cdk's classes are not on this module's class path (ModuleGraphTest holds its pom).
    ROOTS.keySet().stream()
        .filter(module -> CLASSES.containPackage(ROOTS.get(module)))
        .forEach(module -> reachesOnlyInnerRings(module).ifPresent(r -> r.check(CLASSES)));
  }

  @Test
  void noPackagesDependOnEachOtherInACycle() {
    NO_PACKAGE_CYCLES.check(CLASSES);
  }

  @Test
  void theRingsAreDerivedFromTheSourcesOfEachModule() {
    assertThat(ROOTS)
        .containsEntry("core", "io.livegate.core")
        .containsEntry("scan", "io.livegate.scan")
        .containsEntry("ecs-tasks", "io.livegate.tasks")
        .doesNotContainKey("tests");
    assertThat(Modules.packages("core"))
        .as("packages that a hand-written list once missed")
        .contains("io.livegate.core.admin", "io.livegate.core.drift");
    assertThat(LAMBDA_CLASS_PATH)
        .as("the modules a Lambda's jar holds, which ADR 6's one-ObjectMapper rule covers")
        .containsExactlyInAnyOrder("lambdas", "aws", "core", "sql", "statemachine", "github");
  }

  @Test
  void rulesCatchAClassThatBreaksThem() {
    JavaClasses offender =
        new ClassFileImporter().importClasses(io.livegate.core.deploy.ArchitectureOffender.class);

    assertThatThrownBy(() -> NO_PROCESSES.check(offender))
        .hasMessageContaining("ProcessBuilder")
        .hasMessageContaining("Runtime.exec()");
    assertThatThrownBy(() -> NO_PROCESS_ENVIRONMENT.check(offender))
        .hasMessageContaining("System.getenv()");
    assertThatThrownBy(() -> NO_ADAPTER_LIBRARIES.check(offender))
        .hasMessageContaining("java.sql")
        .hasMessageContaining("java.net.http");
    assertThatThrownBy(() -> ENGINE_READS_NO_GIT_OR_HCL.check(offender))
        .hasMessageContaining("org.eclipse.jgit");
    assertThatThrownBy(() -> ONE_OBJECT_MAPPER.check(offender))
        .hasMessageContaining("new ObjectMapper()");
    JavaClasses reachingCli =
        new ClassFileImporter().importClasses(io.livegate.tasks.ArchitectureOffender.class);
    assertThatThrownBy(() -> reachesOnlyInnerRings("ecs-tasks").orElseThrow().check(reachingCli))
        .hasMessageContaining("io.livegate.cli");
  }

  @Test
  void theCycleRuleCatchesTwoPackagesThatReachEachOther() {
    JavaClasses cycle =
        new ClassFileImporter().importPackages("io.livegate.tests.architecture.cycle");

    Throwable failure = catchThrowable(() -> NO_PACKAGE_CYCLES.check(cycle));
    System.out.println(failure.getMessage());
    assertThat(failure)
        .hasMessageContaining("Cycle detected")
        .hasMessageContaining("tests.architecture.cycle.left")
        .hasMessageContaining("tests.architecture.cycle.right");
    assertThatThrownBy(() -> EVERY_CLASS_IN_A_MODULE.check(cycle))
        .hasMessageContaining("io.livegate.tests.architecture.cycle.left.Left is under no module");
  }
}
