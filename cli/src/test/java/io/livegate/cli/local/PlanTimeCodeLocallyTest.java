package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.runner.RunnerKind;
import io.livegate.core.scan.testing.TestRepo;
import io.livegate.process.PlanTimeSpy;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.process.TerraRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In the local runtime, as livegate wires it, a plan-time provider of the change being deployed can
 * neither read the metadb's password nor log in to the metadb.
 */
@Tag("terraform")
class PlanTimeCodeLocallyTest {
  private static final String UNIT = "app";

  @TempDir Path dir;

  @Test
  void aPlanTimeProviderCannotReadTheMetadbPasswordNorLogInToTheMetadb() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    try (LocalWiring wiring = new LocalWiring(dir.resolve("state"))) {
      Path passwordFile = LocalMetadb.passwordFile(wiring.state.metadb());
      String password = Files.readString(passwordFile).strip();
      Map<String, String> attempts = new LinkedHashMap<>();
      attempts.put("read the metadb password", "cat " + passwordFile);
      attempts.put(
          "log in to the metadb",
          "PGCONNECT_TIMEOUT=5 psql -w -h 127.0.0.1 -p "
              + wiring.metadb.port()
              + " -U postgres -At -c \"select 'metadb-' || 'reached'\"");
      PlanTimeSpy spy =
          PlanTimeSpy.install(repo.root().resolve(".spy"), repo.root().resolve(UNIT), attempts);
      TerraRun terraRun =
          new TerraRun(
              new ProcessCommandRunner(),
              RunnerKind.TERRAFORM,
              repo.root(),
              wiring.state.plans(),
              spy.environment(),
              wiring.sandbox);

      terraRun.plan(UNIT, "d1-app", RunnerKind.TERRAFORM.planCommands(UNIT, null, List.of()), null);

      System.out.println(wiring.sandbox.description());
      System.out.println("what the plan-time provider saw:\n" + spy.log());
      assertThat(spy.lines()).contains("== read the metadb password", "== log in to the metadb");
      assertThat(spy.log()).doesNotContain(password).doesNotContain("metadb-reached");
    }
  }
}
