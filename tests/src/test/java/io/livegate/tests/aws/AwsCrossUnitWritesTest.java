package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.tuple;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.vote.Vote;
import io.livegate.process.PlanTimeSpy;
import io.livegate.process.SandboxUserLock;
import io.livegate.process.TerraformState;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.config.AccountsFile;
import io.livegate.scan.testing.TestRepo;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.tasks.TaskWiring;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepo;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unit dev/a's plan-time code (a provider the merged change requires, run by terraform's plan
 * before anyone voted) writes into unit prod/b's directory, the sibling account's directory prod/
 * and the repository root, by relative path and by the checkout's absolute path, on the AWS wiring:
 * terraform runs as the image's unprivileged user ({@code SetprivSandbox}), which owns the checkout
 * it runs in.
 *
 * <p>In terra-run each Plan and Apply is a task of its own, whose container starts from a fresh
 * disk. The harness plays every task in one workspace that persists across tasks and deployments
 * (it keeps the units' local state, standing in for their remote backend), so the planted files do
 * land where the next task runs: what keeps them out of prod/b's Plan and Apply there is that each
 * task checks its commit out anew ({@code Checkout.at}: a hard reset, then every untracked file git
 * does not ignore removed, local state kept). In create-deploy-stack's plan scan each unit plans in
 * a throwaway copy of the checkout that is the user's alone ({@code ThrowawayCopy}); the checkout
 * itself stays root's.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
@ExtendWith(SandboxUserLock.class)
class AwsCrossUnitWritesTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final String PLANTER = "dev/a";
  private static final String VICTIM = "prod/b";
  private static final String ACCOUNTS =
      """
      account "dev" {
        path           = "dev"
        voters         = ["dev@example.com"]
        min_approvals  = 1
        min_rejections = 1
      }
      account "prod" {
        path           = "prod"
        voters         = ["prod@example.com"]
        min_approvals  = 1
        min_rejections = 1
      }
      """;

  /** A directory dev/a plants in (relative to the root, with its slash), in its attempts' words. */
  private record Place(String words, String directory) {}

  private static final List<Place> PLACES =
      List.of(
          new Place("a resource with a provisioner in prod/b", VICTIM + "/"),
          new Place("in the sibling account's directory", "prod/"),
          new Place("in the repository root", ""));

  /** What dev/a plants, each by relative path ({@code _rel}) or absolute path ({@code _abs}). */
  private static final List<String> PLANTED =
      List.of(
          VICTIM + "/planted_rel.tf",
          VICTIM + "/planted_abs.tf",
          VICTIM + "/planted_provider.tf",
          "prod/planted_rel.tf",
          "prod/planted_abs.tf",
          "planted_rel.tf",
          "planted_abs.tf");

  @TempDir Path dir;

  /** Where prod/b's apply and any planted provisioner report, writable by terraform's user. */
  private Path seen;

  private MotoDeployment flow;

  @BeforeEach
  void resetMotoAndMakeTheReportsDirectory() throws IOException {
    MOTO.reset();
    // the tasks' workspace (/tmp/livegate) is 0755, as directories made by the task are
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    seen = Files.createDirectories(dir.resolve("seen"));
    AwsPlanTimeCodeTest.giveToTheUser(seen);
  }

  @AfterEach
  void close() {
    if (flow != null) {
      flow.close();
    }
  }

  /**
   * Merge 1 adds dev/a, which requires the planter, and prod/b; dev/a's plan fails (the planter is
   * no real provider) after it planted, so once prod/b is applied the deployment rolls prod/b back
   * (its resource is of a newly added provider): that rollback's Plan and Apply tasks run after the
   * planting. Merge 2 changes prod/b, whose Plan and Apply tasks run after it too, in the same
   * workspace. Each plans and applies prod/b's committed code only.
   */
  @Test
  void aUnitsPlanTimeWritesNeverReachAnotherUnitsLaterPlanAndApplyTasks() throws Exception {
    Path checkout = dir.resolve("terra-run/repository");
    PlanTimeSpy spy = planter();
    LiveRepo merged = twoAccounts(dir.resolve("live"));
    String changed;
    try (TestRepo repo = TestRepo.create(merged.root())) {
      repo.write(VICTIM + "/main.tf", victim("v2"));
      changed = repo.commit("merge #2: b at v2");
    }
    flow = MotoDeployment.asTheTasksRunTerraform(MOTO, dir, merged, spy.environment());

    flow.deploy();
    flow.drive(execution -> Vote.Choice.APPROVE);
    List<Execution> first = flow.executions();
    assertThat(flow.deliverMerge(2, merged.head(), changed).get("statusCode").asInt())
        .isEqualTo(200);
    Deployment second = flow.driveTheDeploymentOf(2);

    Path applyLog = seen.resolve("prod-b-apply.log");
    String applySaw = Files.exists(applyLog) ? Files.readString(applyLog) : "";
    System.out.println("what dev/a's provider tried and saw:\n" + spy.log());
    System.out.println("what prod/b's applies saw:\n" + applySaw);
    assertThat(spy.exits())
        .as("the planter planted in the workspace it ran in, by both paths")
        .containsOnlyKeys(plantings().keySet())
        .allSatisfy((attempt, exit) -> assertThat(exit).as(attempt).isZero());
    assertThat(first)
        .extracting(Execution::unit, Execution::rollback, Execution::status)
        .containsExactlyInAnyOrder(
            tuple(PLANTER, false, ExecutionStatus.FAILED),
            tuple(VICTIM, false, ExecutionStatus.SUCCEEDED),
            tuple(VICTIM, true, ExecutionStatus.SUCCEEDED));
    Execution rollback = first.stream().filter(Execution::rollback).findFirst().orElseThrow();
    Execution planter =
        first.stream().filter(e -> e.unit().equals(PLANTER)).findFirst().orElseThrow();
    assertThat(rollback.startedAt())
        .as("prod/b's rollback ran after dev/a's plan had planted")
        .isAfterOrEqualTo(planter.finishedAt());
    assertThat(summary(rollback))
        .as("the rollback's Plan saw prod/b's code: terraform_data.b destroyed, nothing else")
        .containsExactly(0, 0, 1);
    List<Execution> victims = flow.metadb.executions().list(second.id());
    assertThat(victims)
        .extracting(Execution::unit, Execution::status)
        .containsExactly(tuple(VICTIM, ExecutionStatus.SUCCEEDED));
    assertThat(summary(victims.get(0)))
        .as("the second deployment's Plan saw prod/b's committed code only: terraform_data.b")
        .containsExactly(1, 0, 0);
    assertThat(TerraformState.resources(checkout.resolve(VICTIM)))
        .as("prod/b's Apply ran its committed code and its approved plan only")
        .containsOnlyKeys("terraform_data.b");
    assertThat(seen.resolve("planted.log")).as("no planted provisioner ran").doesNotExist();
    assertThat(applySaw)
        .as("prod/b's Apply tasks ran, and found nothing planted beside their code")
        .contains("== prod/b applies v1")
        .contains("== prod/b applies v2")
        .doesNotContain("planted");
    for (String planted : PLANTED) {
      assertThat(checkout.resolve(planted)).as("after the run: " + planted).doesNotExist();
    }
  }

  /**
   * create-deploy-stack's plan scan, wired from a task's environment, of the same merge: dev/a
   * plans first (one unit at a time, in order) and plants, prod/b plans next. Had a planted file
   * reached prod/b's plan, the planted provider would have failed it too.
   */
  @Test
  void aUnitsPlanTimeWritesNeverReachAnotherUnitsPlanInCreateDeployStacksPlanScan()
      throws Exception {
    PlanTimeSpy spy = planter();
    LiveRepo merged = twoAccounts(dir.resolve("live"));
    Map<String, String> task = new HashMap<>(spy.environment());
    task.putAll(MOTO.wiringEnvironment());
    task.put(RuntimeContract.Tasks.REPO_URL, merged.root().toString());
    task.put(RuntimeContract.Tasks.WORKSPACE, dir.resolve("workspace").toString());
    task.put(RuntimeContract.Tasks.ACCOUNTS, ACCOUNTS);
    task.put(RuntimeContract.Engine.RUNNER, "terraform");
    StringWriter log = new StringWriter();

    Throwable failure =
        catchThrowable(
            () ->
                TaskWiring.fromEnvironment(task, new PrintWriter(log, true))
                    .planScan()
                    .run(
                        ScanCommand.builder(merged.root(), AccountsFile.parse("accounts", ACCOUNTS))
                            .base(merged.base())
                            .head(merged.head())
                            .parallelism(1)
                            .build()));

    System.out.println("the plan scan: " + failure + "\n" + log);
    assertThat(failure)
        .as("only dev/a, whose provider is no real one, could not be planned")
        .hasMessageStartingWith("1 unit could not be planned")
        .hasMessageContaining("\n  " + PLANTER + ": ")
        .hasMessageNotContaining("\n  " + VICTIM + ": ");
    System.out.println("what dev/a's provider tried and saw:\n" + spy.log());
    assertThat(spy.lines())
        .filteredOn(line -> line.startsWith("== "))
        .as("the planter ran once, in dev/a's plan only")
        .hasSize(plantings().size());
    Map<String, Integer> exits = spy.exits();
    assertThat(exits).containsOnlyKeys(plantings().keySet());
    plantings()
        .keySet()
        .forEach(
            attempt -> {
              if (attempt.contains("by relative path")) {
                assertThat(exits.get(attempt)).as(attempt + ", in its own copy").isZero();
              } else {
                assertThat(exits.get(attempt)).as(attempt + ": the checkout is root's").isNotZero();
              }
            });
    for (String planted : PLANTED) {
      assertThat(merged.root().resolve(planted)).as(planted).doesNotExist();
    }
  }

  /**
   * The planter's attempts, by name: each plants a file and lists where it went. The checkout's
   * absolute path is found as code would find it: a throwaway copy's {@code .git} file names the
   * checkout's git directory; in a checkout of its own, it is two levels up.
   */
  private Map<String, String> plantings() {
    String root =
        "root=$(sed -n 's/^gitdir: //p' ../../.git 2>/dev/null); root=${root%/.git};"
            + " root=${root:-$(cd ../.. && pwd -P)}; echo \"the checkout: $root\"; ";
    Path plants = dir.resolve("spy/plants");
    Map<String, String> attempts = new LinkedHashMap<>();
    for (Place place : PLACES) {
      attempts.put(
          "plant " + place.words() + ", by relative path",
          "cp "
              + plants.resolve("rel.tf")
              + " ../../"
              + place.directory()
              + "planted_rel.tf && ls -A ../../"
              + place.directory());
      attempts.put(
          "plant " + place.words() + ", by absolute path",
          root
              + "cp "
              + plants.resolve("abs.tf")
              + " \"$root/"
              + place.directory()
              + "planted_abs.tf\"");
    }
    attempts.put(
        "plant this provider in prod/b's plan, by relative path",
        "cp " + plants.resolve("provider.tf") + " ../../" + VICTIM + "/planted_provider.tf");
    return attempts;
  }

  /**
   * dev/a's provider, which makes {@link #plantings}, in a mirror its user owns, with what it
   * plants: resources whose provisioner reports that it ran, and a file that makes a unit require
   * the provider itself.
   */
  private PlanTimeSpy planter() throws IOException {
    Path spyDir = Files.createDirectories(dir.resolve("spy"));
    PlanTimeSpy spy = PlanTimeSpy.install(spyDir, spyDir, plantings());
    Path plants = Files.createDirectories(spyDir.resolve("plants"));
    for (String name : List.of("rel", "abs")) {
      Files.writeString(
          plants.resolve(name + ".tf"),
          "resource \"terraform_data\" \"planted_"
              + name
              + "\" {\n  provisioner \"local-exec\" {\n    command = \"echo planted_"
              + name
              + " ran in $PWD >> "
              + seen.resolve("planted.log")
              + "\"\n  }\n}\n");
    }
    Files.copy(spyDir.resolve("spy.tf"), plants.resolve("provider.tf"));
    AwsPlanTimeCodeTest.giveToTheUser(spyDir);
    return spy;
  }

  /**
   * Merge 1 on an empty repository: dev/a, which requires the planter, and prod/b at v1, in two
   * accounts.
   */
  private LiveRepo twoAccounts(Path root) throws IOException {
    try (TestRepo repo = TestRepo.create(root)) {
      repo.write("README.md", "live\n");
      String base = repo.commit("empty");
      repo.write(PLANTER + "/terragrunt.hcl", "inputs = {}\n")
          .write(PLANTER + "/main.tf", "resource \"terraform_data\" \"a\" {}\n")
          .write(PLANTER + "/spy.tf", Files.readString(dir.resolve("spy/spy.tf")))
          .write(VICTIM + "/terragrunt.hcl", "inputs = {}\n")
          .write(VICTIM + "/main.tf", victim("v1"));
      String head = repo.commit("merge #1: a, with a provider of its own, and b");
      return new LiveRepo(root, base, head, ACCOUNTS);
    }
  }

  /**
   * prod/b's committed code at {@code version}: one resource, replaced at each version, whose
   * provisioner reports what the Apply finds in prod/b, prod/ and the repository root.
   */
  private String victim(String version) {
    return "resource \"terraform_data\" \"b\" {\n  triggers_replace = \""
        + version
        + "\"\n  provisioner \"local-exec\" {\n    command = \"{ echo '== prod/b applies "
        + version
        + "'; ls -A . .. ../..; } >> "
        + seen.resolve("prod-b-apply.log")
        + "\"\n  }\n}\n";
  }

  /** What {@code execution}'s recorded plan adds, changes and destroys, printed. */
  private static List<Integer> summary(Execution execution) {
    PlanSummary planned = execution.planSummary();
    System.out.println(
        execution.unit() + (execution.rollback() ? " (rollback)" : "") + " planned " + planned);
    return List.of(planned.add(), planned.change(), planned.destroy());
  }
}
