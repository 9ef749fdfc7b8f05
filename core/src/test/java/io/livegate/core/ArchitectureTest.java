package io.livegate.core;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Core stays pure: no AWS SDK, JDBI or JDBC, no process spawning, and no reading of the process
 * environment, which only each entry point's wiring may do.
 */
class ArchitectureTest {
  private static final String CORE = "io.livegate.core..";

  private static final JavaClasses CORE_CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.livegate.core");

  private static final ArchRule NO_ADAPTER_LIBRARIES =
      noClasses()
          .that()
          .resideInAPackage(CORE)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("software.amazon.awssdk..", "org.jdbi..", "java.sql..", "javax.sql..")
          .because("AWS, JDBI and JDBC belong in adapters behind core's ports");

  private static final ArchRule NO_PROCESSES =
      noClasses()
          .that()
          .resideInAPackage(CORE)
          .should()
          .dependOnClassesThat()
          .belongToAnyOf(ProcessBuilder.class, Process.class, ProcessHandle.class)
          .orShould()
          .callMethodWhere(call(Runtime.class, "exec"))
          .because("core starts processes only through the CommandRunner port");

  private static final ArchRule NO_PROCESS_ENVIRONMENT =
      noClasses()
          .that()
          .resideInAPackage(CORE)
          .should()
          .callMethodWhere(call(System.class, "getenv"))
          .because("environment variables are read only in each entry point's composition root");

  private static com.tngtech.archunit.base.DescribedPredicate<JavaMethodCall> call(
      Class<?> owner, String method) {
    return describe(
        owner.getSimpleName() + "." + method + "()",
        call ->
            call.getTargetOwner().isEquivalentTo(owner)
                && call.getTarget().getName().equals(method));
  }

  @Test
  void coreDependsOnNoAwsSdkJdbiOrJdbc() {
    NO_ADAPTER_LIBRARIES.check(CORE_CLASSES);
  }

  @Test
  void coreNeverStartsAProcess() {
    NO_PROCESSES.check(CORE_CLASSES);
  }

  @Test
  void coreNeverReadsTheProcessEnvironment() {
    NO_PROCESS_ENVIRONMENT.check(CORE_CLASSES);
  }

  @Test
  void rulesCatchAClassThatBreaksThem() {
    JavaClasses offender = new ClassFileImporter().importClasses(Offender.class);

    assertThatThrownBy(() -> NO_PROCESSES.check(offender))
        .hasMessageContaining("ProcessBuilder")
        .hasMessageContaining("Runtime.exec()");
    assertThatThrownBy(() -> NO_PROCESS_ENVIRONMENT.check(offender))
        .hasMessageContaining("System.getenv()");
    assertThatThrownBy(() -> NO_ADAPTER_LIBRARIES.check(offender)).hasMessageContaining("java.sql");
  }

  /** Everything core must not do, for checking that the rules can fail. */
  @SuppressWarnings("unused")
  static final class Offender {
    Map<String, String> environment() {
      return System.getenv();
    }

    String home() {
      return System.getenv("HOME");
    }

    Process start() throws IOException {
      return new ProcessBuilder(List.of("true")).start();
    }

    Process exec() throws IOException {
      return Runtime.getRuntime().exec(new String[] {"true"});
    }

    java.sql.Connection connection(javax.sql.DataSource dataSource) throws java.sql.SQLException {
      return dataSource.getConnection();
    }
  }
}
