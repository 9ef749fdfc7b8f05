package io.livegate.tests.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The layering, on the classes of every module: the domain ({@code io.livegate.core}, modules core
 * and scan) stays pure; its engine side never reaches git or HCL; adapters and contracts never
 * reach a deployable; and no deployable reaches another. The module graph itself is held by {@link
 * ModuleGraphTest}.
 */
class ArchitectureTest {
  private static final String DOMAIN = "io.livegate.core..";

  /** The engine side of the domain: module core's packages. */
  private static final String[] ENGINE = {
    "io.livegate.core",
    "io.livegate.core.account..",
    "io.livegate.core.deploy..",
    "io.livegate.core.engine..",
    "io.livegate.core.flow..",
    "io.livegate.core.pr..",
    "io.livegate.core.runner..",
    "io.livegate.core.stack..",
    "io.livegate.core.vote..",
    "io.livegate.core.webhook.."
  };

  private static final String[] ADAPTERS_AND_CONTRACTS = {
    "io.livegate.sql..",
    "io.livegate.statemachine..",
    "io.livegate.github..",
    "io.livegate.process..",
    "io.livegate.aws.."
  };

  /** Each deployable's packages. */
  private static final Map<String, String> DEPLOYABLES =
      Map.of(
          "cli", "io.livegate.cli..",
          "lambdas", "io.livegate.lambdas..",
          "ecs-tasks", "io.livegate.tasks..",
          "infra-cdk", "io.livegate.cdk..");

  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // The modules' test jars, which a reactor build puts on the class path as jars.
          .withImportOption(location -> !location.contains("-tests.jar"))
          .importPackages("io.livegate");

  private static final ArchRule NO_ADAPTER_LIBRARIES =
      noClasses()
          .that()
          .resideInAPackage(DOMAIN)
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
          .resideInAPackage(DOMAIN)
          .should()
          .dependOnClassesThat()
          .belongToAnyOf(ProcessBuilder.class, Process.class, ProcessHandle.class)
          .orShould()
          .callMethodWhere(call(Runtime.class, "exec"))
          .because("the domain starts processes only through the CommandRunner port");

  private static final ArchRule NO_PROCESS_ENVIRONMENT =
      noClasses()
          .that()
          .resideInAPackage(DOMAIN)
          .should()
          .callMethodWhere(call(System.class, "getenv"))
          .because("environment variables are read only in each entry point's composition root");

  private static final ArchRule ENGINE_READS_NO_GIT_OR_HCL =
      noClasses()
          .that()
          .resideInAnyPackage(ENGINE)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.eclipse.jgit..",
              "io.livegate.scan.hcl..",
              "io.livegate.scan.terragrunt..",
              "io.livegate.scan.repo..",
              "io.livegate.scan.graph..",
              "io.livegate.scan..",
              "io.livegate.scan.config..")
          .because(
              "the Lambdas run the engine side without git or the HCL reader on their class path");

  private static final ArchRule ADAPTERS_REACH_NO_DEPLOYABLE =
      noClasses()
          .that()
          .resideInAnyPackage(ADAPTERS_AND_CONTRACTS)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(DEPLOYABLES.values().toArray(String[]::new))
          .because("shared code lives below the deployables");

  private static DescribedPredicate<JavaMethodCall> call(Class<?> owner, String method) {
    return describe(
        owner.getSimpleName() + "." + method + "()",
        call ->
            call.getTargetOwner().isEquivalentTo(owner)
                && call.getTarget().getName().equals(method));
  }

  private static ArchRule deployableReachesNoOther(String deployable) {
    String own = DEPLOYABLES.get(deployable);
    return noClasses()
        .that()
        .resideInAPackage(own)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            DEPLOYABLES.values().stream().filter(p -> !p.equals(own)).toArray(String[]::new))
        .because("deployables never depend on deployables; shared code moves down a ring");
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
  void theEngineSideNeverReachesGitOrTheHclReader() {
    ENGINE_READS_NO_GIT_OR_HCL.check(CLASSES);
  }

  @Test
  void adaptersAndContractsNeverReachADeployable() {
    ADAPTERS_REACH_NO_DEPLOYABLE.check(CLASSES);
  }

  @Test
  void noDeployableReachesAnother() {
    // infra-cdk's classes are not on this module's class path; its pom has no other deployable.
    for (String deployable : List.of("cli", "lambdas", "ecs-tasks")) {
      deployableReachesNoOther(deployable).check(CLASSES);
    }
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
    JavaClasses reachingCli =
        new ClassFileImporter().importClasses(io.livegate.tasks.ArchitectureOffender.class);
    assertThatThrownBy(() -> deployableReachesNoOther("ecs-tasks").check(reachingCli))
        .hasMessageContaining("io.livegate.cli");
  }
}
