package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.process.PlanTimeSpy;
import io.livegate.process.TerraformState;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unit dev/a's plan-time code (a provider it ships, run by terraform's plan before anyone voted)
 * writes into unit prod/b's directory, into the sibling account's directory prod/ and into the
 * repository root. Each unit's plan runs in a throwaway copy of the checkout, so none of it reaches
 * the live repository: prod/b's plan and apply run exactly the committed code, in a later
 * deployment, and its plan in a plan scan and drift. Nor can it write by path into a repository
 * under {@code /tmp}, nor approve prod/b.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Tag("terraform")
class CrossUnitWritesTest {
  private static final String PLANTER = "dev/a";
  private static final String VICTIM = "prod/b";
  private static final List<String> PLANTED =
      List.of(VICTIM + "/planted_override.tf", "prod/planted.txt", "planted.txt");

  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();

  @Test
  void aUnitsPlanTimeWritesNeverReachAnotherUnitsLaterPlanAndApply() throws Exception {
    TestRepo repo = twoAccounts();
    PlanTimeSpy spy = planter(repo);
    repo.commit("a ships a provider of its own");
    Path state = dir.resolve("state");
    CliRun planted = CliRun.autoApprovedDeploy(repo.root(), state);
    repo.write(VICTIM + "/main.tf", "resource \"terraform_data\" \"b\" {\n  input = \"v2\"\n}\n");
    repo.commit("b changes");

    CliRun deployed = CliRun.autoApprovedDeploy(repo.root(), state);

    System.out.println("what dev/a's provider did:\n" + spy.log());
    System.out.println(planted.out() + deployed.out());
    assertThat(spy.exits()).as("the planter ran, and wrote in its own copy").containsValue(0);
    Map<String, ExecutionStatus> statuses = new LinkedHashMap<>();
    for (Execution execution : Recorded.in(state).executions()) {
      statuses.put(execution.unit(), execution.status());
    }
    assertThat(statuses)
        .containsEntry(PLANTER, ExecutionStatus.FAILED)
        .containsEntry(VICTIM, ExecutionStatus.SUCCEEDED);
    assertThat(TerraformState.resources(repo.root().resolve(VICTIM)))
        .as("prod/b's apply ran its committed code and its approved plan only")
        .containsOnlyKeys("terraform_data.b");
    assertNothingPlanted(repo);
  }

  /**
   * dev/a's apply (a {@code local-exec} provisioner, approved for dev/a) plants a resource whose
   * provisioner would leave a mark into prod/b's directory, and files into the repository root and
   * its own directory, by relative path and by the checkout's absolute path (it sits under {@code
   * /tmp}, where the sandbox binds it read-only). prod/b depends on dev/a, so it plans and applies
   * after dev/a's apply: it must plan and apply only its committed code, and the checkout must hold
   * nothing of dev/a's apply but its state.
   */
  @Test
  void aUnitsApplyWritesNeverReachAnotherUnitsPlanAndApplyNorTheCheckout() throws Exception {
    TestRepo repo = twoAccounts();
    Path mark = dir.resolve("planted-provisioner-ran.log");
    Path seen = dir.resolve("what-dev-a-apply-saw.log");
    String plantedResource =
        "resource \"terraform_data\" \"planted\" {\n  provisioner \"local-exec\" {\n"
            + "    command = \"curl -sS --data-binary ran "
            + Oracle.url(mark)
            + "\"\n  }\n}\n";
    List<String> plants = new ArrayList<>();
    for (String path : List.of(VICTIM + "/planted.tf", "planted.tf", PLANTER + "/later.tf")) {
      for (String target : List.of("../../" + path, repo.root().resolve(path).toString())) {
        plants.add(
            Oracle.appendOutputOf(
                seen,
                "printf '"
                    + plantedResource.replace("\n", "\\n")
                    + "' > "
                    + target
                    + " && echo wrote "
                    + target
                    + " || echo could not write "
                    + target));
      }
    }
    repo.write(
            PLANTER + "/main.tf",
            "resource \"terraform_data\" \"a\" {\n  provisioner \"local-exec\" {\n"
                + "    command = <<-EOT\n"
                + String.join("\n", plants)
                + "\n    EOT\n  }\n}\n")
        .write(
            VICTIM + "/terragrunt.hcl",
            "dependencies {\n  paths = [\"../../" + PLANTER + "\"]\n}\n")
        .write(VICTIM + "/main.tf", "resource \"terraform_data\" \"b\" {\n  input = \"v2\"\n}\n");
    repo.commit("a's apply plants; b, which depends on a, changes");

    CliRun deployed = CliRun.autoApprovedDeploy(repo.root(), dir.resolve("state"));

    System.out.println(
        "what dev/a's apply did:\n" + (Files.exists(seen) ? Files.readString(seen) : ""));
    System.out.println(deployed.out() + deployed.err());
    assertThat(Files.readString(seen)).as("dev/a's apply ran its provisioner").contains("wrote ");
    assertThat(deployed.exitCode()).as(deployed.toString()).isZero();
    assertThat(TerraformState.resources(repo.root().resolve(PLANTER)))
        .as("dev/a's state is kept in the checkout")
        .containsOnlyKeys("terraform_data.a");
    assertThat(TerraformState.resources(repo.root().resolve(VICTIM)))
        .as("prod/b's apply ran its committed code and its approved plan only")
        .containsOnlyKeys("terraform_data.b");
    assertThat(mark).as("the planted provisioner never ran").doesNotExist();
    try (Stream<Path> left = Files.list(LocalWorkspaces.applyWorkspaces(repo.root()))) {
      assertThat(left).as("the applies' copies are gone").isEmpty();
    }
    assertThat(dir.resolve("state").resolve("apply-workspaces"))
        .as("no apply's copy is on the state directory's disk")
        .doesNotExist();
    for (String planted : List.of(VICTIM + "/planted.tf", "planted.tf", PLANTER + "/later.tf")) {
      assertThat(repo.root().resolve(planted)).as(planted).doesNotExist();
    }
  }

  @Test
  void underServeAUnitsPlanTimeWritesNeverReachAnotherUnitInTheNextDeployment() throws Exception {
    TestRepo repo = twoAccounts();
    String before = repo.commit("nothing yet");
    PlanTimeSpy spy = planter(repo);
    String planting = repo.commit("merge 1: a ships a provider of its own");
    repo.write(VICTIM + "/main.tf", "resource \"terraform_data\" \"b\" {\n  input = \"v2\"\n}\n");
    String victimChanges = repo.commit("merge 2: b changes");
    Path state = dir.resolve("state");

    try (ServeProcess serve =
        ServeProcess.start(
            ServeProcess.oneAccount(
                dir, repo.root(), state, "--auto-approve", "--parallelism", "1"))) {
      assertThat(
              serve.deliver(ServeProcess.merged(10, planting, before), "delivery-10").statusCode())
          .isEqualTo(200);
      assertThat(
              serve
                  .deliver(ServeProcess.merged(11, victimChanges, planting), "delivery-11")
                  .statusCode())
          .isEqualTo(200);
      serve.awaitLine(victimChanges + ": success (deployment");
      System.out.println("what dev/a's provider did:\n" + spy.log());
      System.out.println(serve.log());
    }

    assertThat(spy.exits()).as("the planter ran, and wrote in its own copy").containsValue(0);
    Path workspace = state.resolve("workspace");
    for (String planted : PLANTED) {
      assertThat(workspace.resolve(planted)).as(planted).doesNotExist();
    }
    assertThat(TerraformState.resources(workspace.resolve(VICTIM)))
        .as("the second deployment applied prod/b's committed code and approved plan only")
        .containsOnlyKeys("terraform_data.b");
  }

  @Test
  void aUnitsPlanTimeWritesNeverReachAnotherUnitsPlanInAPlanScan() throws Exception {
    TestRepo repo = twoAccounts();
    PlanTimeSpy spy = planter(repo);
    repo.commit("a ships a provider of its own");

    CliRun scan = planScan(repo);

    System.out.println("what dev/a's provider did:\n" + spy.log());
    System.out.println(scan.err());
    assertThat(spy.exits()).as("the planter ran, and wrote in its own copy").containsValue(0);
    assertThat(scan.err())
        .as("only dev/a could not be planned")
        .contains("\n  " + PLANTER + ": ")
        .doesNotContain("\n  " + VICTIM + ": ");
    assertNothingPlanted(repo);
  }

  @Test
  void aUnitsPlanTimeWritesNeverReachAnotherUnitsDriftPlan() throws Exception {
    TestRepo repo = twoAccounts();
    Path state = dir.resolve("state");
    CliRun deployed = CliRun.autoApprovedDeploy(repo.root(), state);
    assertThat(deployed.exitCode()).as(deployed.toString()).isZero();
    PlanTimeSpy spy = planter(repo);
    repo.commit("a ships a provider of its own");

    CliRun drift =
        CliRun.withPath(
            "drift",
            "--repo",
            repo.root().toString(),
            "--runner",
            "terraform",
            "--parallelism",
            "1",
            "--state-dir",
            state.toString());

    System.out.println("what dev/a's provider did:\n" + spy.log());
    System.out.println(drift.out());
    assertThat(spy.exits()).as("the planter ran, and wrote in its own copy").containsValue(0);
    assertThat(drift.out())
        .as("prod/b planned its committed code: no planted resource to create, no drift")
        .contains(PLANTER)
        .doesNotContain(VICTIM);
    assertNothingPlanted(repo);
  }

  /**
   * While prod/b's apply runs (its provisioner is held until the test lets it go), dev/a's
   * plan-time code looks for it where the local applies' copies are kept, in the repository's git
   * directory: the copy holds prod/b's code and the state terraform writes during the apply. Each
   * command's sandbox shows it its own copy only, so dev/a finds the directory empty (before, it
   * listed prod/b's copy and read its files).
   */
  @Test
  void aUnitsPlanTimeCodeFindsNothingOfAnotherUnitsRunningApplyCopy() throws Exception {
    TestRepo repo = twoAccounts();
    Path oracle = dir.resolve("oracle.log");
    Path applies = LocalWorkspaces.applyWorkspaces(repo.root());
    String looks = "dev/a looks";
    String applying = "prod/b applies";
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put("wait until prod/b's apply runs", Oracle.append(oracle, looks));
    attempts.put("list the applies' copies", "ls -A " + applies + " | grep .");
    attempts.put("find prod/b's copy", "find " + applies + " -path '*/" + VICTIM + "/*' | grep .");
    attempts.put("list prod/b's copy", "ls -A " + applies + "/*/" + VICTIM + " | grep .");
    attempts.put("read prod/b's code in its copy", "cat " + applies + "/*/" + VICTIM + "/main.tf");
    attempts.put(
        "read prod/b's state as terraform writes it",
        "cat " + applies + "/*/" + VICTIM + "/terraform.tfstate");
    PlanTimeSpy spy = planter(repo, attempts);
    repo.write(
        VICTIM + "/main.tf",
        "resource \"terraform_data\" \"b\" {\n  input = \"v2\"\n"
            + "  provisioner \"local-exec\" {\n    command = \""
            + Oracle.append(oracle, applying)
            + "\"\n  }\n}\n");
    repo.commit("a ships a provider of its own; b's apply runs a provisioner");
    Path deployLog = dir.resolve("deploy.log");
    Process deploy;
    try (Oracle.Hold planLooks = Oracle.hold(oracle, looks);
        Oracle.Hold applyRuns = Oracle.hold(oracle, applying)) {
      deploy = deploying(repo, deployLog, "--auto-approve");
      ChildJvm.await(applyRuns::reached, "prod/b's apply runs", deploy, deployLog);
      ChildJvm.await(planLooks::reached, "dev/a's provider runs", deploy, deployLog);
      planLooks.close();
      ChildJvm.await(
          () -> exits(spy).containsKey("read prod/b's state as terraform writes it"),
          "dev/a's provider is done",
          deploy,
          deployLog);
    }
    ChildJvm.awaitExit(deploy, deployLog);

    System.out.println("what dev/a's provider tried and saw:\n" + spy.log());
    System.out.println(ChildJvm.read(deployLog));
    assertEveryAttemptFailedBut("wait until prod/b's apply runs", spy, attempts);
    // dev/a failed, so prod/b's new provider was rolled back after its apply
    assertThat(Recorded.in(dir.resolve("state")).execution(VICTIM).status())
        .isEqualTo(ExecutionStatus.SUCCEEDED);
  }

  /**
   * dev/a's plan-time code tries to leave a file in the host's {@code /tmp} and leaves one in its
   * {@code TMPDIR}; prod/b's apply, a later command held until dev/a's code is done, looks for
   * both. The host's {@code /tmp} is read-only in the sandbox, so the first write fails loudly
   * (before, it landed where every later command read it); the {@code TMPDIR} is each command's own
   * and ends with it, so prod/b finds neither, and nothing reached the host's {@code /tmp}.
   */
  @Test
  void whatAUnitLeavesInItsTmpdirReachesNoLaterCommandAndTheHostsTmpIsReadOnly() throws Exception {
    TestRepo repo = twoAccounts();
    Path oracle = dir.resolve("oracle.log");
    String left = "/tmp/left-by-dev-a-" + dir.getFileName();
    String scratch = "$TMPDIR/left-by-dev-a";
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put("leave a file in the host's /tmp", "echo dev-a-was-here > " + left);
    attempts.put(
        "leave a file in its TMPDIR", "echo dev-a-was-here > " + scratch + " && cat " + scratch);
    PlanTimeSpy spy = planter(repo, attempts);
    String applying = "prod/b applies";
    repo.write(
        VICTIM + "/main.tf",
        "resource \"terraform_data\" \"b\" {\n  input = \"v2\"\n"
            + "  provisioner \"local-exec\" {\n    command = \""
            + Oracle.append(oracle, applying)
            + "; "
            + Oracle.appendOutputOf(oracle, "echo prod/b looks; cat " + left + " " + scratch)
            + "\"\n  }\n}\n");
    repo.commit("a ships a provider of its own; b's apply looks for what a left");
    Path deployLog = dir.resolve("deploy.log");
    Process deploy;
    try (Oracle.Hold applyRuns = Oracle.hold(oracle, applying)) {
      deploy = deploying(repo, deployLog, "--auto-approve");
      ChildJvm.await(
          () -> exits(spy).containsKey("leave a file in its TMPDIR"),
          "dev/a's provider is done",
          deploy,
          deployLog);
      ChildJvm.await(applyRuns::reached, "prod/b's apply runs", deploy, deployLog);
    }
    ChildJvm.awaitExit(deploy, deployLog);

    String prodSaw = Files.readString(oracle);
    System.out.println("what dev/a's provider tried and saw:\n" + spy.log());
    System.out.println("what prod/b's apply saw:\n" + prodSaw);
    System.out.println(ChildJvm.read(deployLog));
    assertThat(spy.exits())
        .hasEntrySatisfying("leave a file in the host's /tmp", exit -> assertThat(exit).isNotZero())
        .containsEntry("leave a file in its TMPDIR", 0);
    assertThat(spy.log()).contains("Read-only file system");
    assertThat(prodSaw)
        .as("prod/b's apply looked, and found nothing of dev/a's")
        .contains("prod/b looks")
        .doesNotContain("dev-a-was-here");
    assertThat(Path.of(left)).as("dev/a's file never reached the host's /tmp").doesNotExist();
  }

  /**
   * The whole local deployment, as root where this machine runs tests as root: dev/a's plan-time
   * code waits until prod/b asks for its votes, then tries every way to approve prod/b itself
   * (unmount the tmpfs over the state directory, mount, make namespaces, trace, read livegate's
   * environment and memory, the outbox and the JVMs' performance data, and POST the approve link it
   * would find). All of them fail; prod/b waits until its voter approves, and that vote is the one
   * that decides.
   */
  @Test
  void runAsRootAUnitsPlanTimeCodeCannotApproveAnotherUnitWhichWaitsForItsVoter() throws Exception {
    TestRepo repo = twoAccounts();
    Path state = dir.resolve("state");
    Path outbox = state.resolve("outbox");
    // where the provider can read it: the checkout, read-only to it (its /tmp is its own)
    Path livegatePid = repo.root().resolve(".git").resolve("livegate.pid");
    Path oracle = dir.resolve("oracle.log");
    String waits = "dev/a waits until prod/b asks for votes";
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put(
        "wait until prod/b asks for votes",
        Oracle.append(oracle, waits) + " && echo prod/b waits for its voter");
    attempts.put("keep a capability", "grep CapEff /proc/self/status | grep -v 'CapEff:\\s*0*$'");
    attempts.put("unmount the tmpfs over the state directory", "umount -l " + state);
    attempts.put("unmount /proc", "umount -l /proc");
    attempts.put("mount a fresh /proc", "mount -t proc proc /proc");
    attempts.put("make a user namespace to mount in", "unshare -Urm true");
    attempts.put("trace a child", "strace -o /dev/null true");
    attempts.put(
        "read livegate's environment", "tr '\\0' '\\n' < /proc/$(cat " + livegatePid + ")/environ");
    attempts.put(
        "read livegate's memory", "head -c 16 /proc/$(cat " + livegatePid + ")/mem > /dev/null");
    attempts.put("read the outbox", "cat " + outbox + "/*");
    attempts.put(
        "read the JVMs' performance data", "ls -A /tmp/hsperfdata_* 2>/dev/null | grep '^[0-9]'");
    attempts.put(
        "approve prod/b with the link its mail holds",
        "link=$(grep -rhoa 'http://127[^ ]*' "
            + state
            + ") && curl -fsS --data \"${link#*\\?}\" \"${link%%\\?*}\" | grep 'It decided'");
    PlanTimeSpy spy = planter(repo, attempts);
    repo.write(VICTIM + "/main.tf", "resource \"terraform_data\" \"b\" {\n  input = \"v2\"\n}\n");
    repo.commit("a ships a provider of its own; b changes");
    Path deployLog = dir.resolve("deploy.log");
    Process deploy;
    try (Oracle.Hold waiting = Oracle.hold(oracle, waits)) {
      deploy = deploying(repo, deployLog);
      Files.writeString(livegatePid, Long.toString(deploy.pid()));

      ChildJvm.await(
          () -> !mails(outbox, VICTIM).isEmpty(), "prod/b asks for votes", deploy, deployLog);
    }
    String lastAttempt = "approve prod/b with the link its mail holds";
    ChildJvm.await(
        () -> exits(spy).containsKey(lastAttempt), "dev/a's provider is done", deploy, deployLog);
    String voterAnswer = VoteClient.confirm(mails(outbox, VICTIM).get(0).approveLink()).body();
    ChildJvm.await(
        () ->
            ChildJvm.read(deployLog)
                .lines()
                .anyMatch(
                    line ->
                        line.startsWith("[" + VICTIM + "] recorded ")
                            && line.contains(" as succeeded")),
        "prod/b is applied and recorded",
        deploy,
        deployLog);
    // dev/a failed, so prod/b's new provider is rolled back, which waits for a vote of its own:
    // SIGTERM ends the run there, as an operator would
    deploy.destroy();
    ChildJvm.awaitExit(deploy, deployLog);

    System.out.println("livegate runs as " + System.getProperty("user.name"));
    System.out.println("what dev/a's provider tried and saw:\n" + spy.log());
    System.out.println(ChildJvm.read(deployLog));
    assertEveryAttemptFailedBut("wait until prod/b asks for votes", spy, attempts);
    assertThat(voterAnswer)
        .as("the voter's own approval decided prod/b: nothing had approved it before")
        .contains("It decided the vote");
    Recorded recorded = Recorded.in(state);
    assertThat(recorded.execution(PLANTER).status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(recorded.execution(VICTIM).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(TerraformState.resources(repo.root().resolve(VICTIM)))
        .containsOnlyKeys("terraform_data.b");
  }

  /**
   * A deployment of {@code repo}'s last merge into the test's state directory, in a child JVM
   * writing to {@code log}, stopped after the test if it still runs.
   */
  private Process deploying(TestRepo repo, Path log, String... options) throws IOException {
    List<String> arguments = new ArrayList<>(List.of(options));
    arguments.addAll(List.of("--port", "0"));
    Process deploy =
        ChildJvm.livegate(
            log,
            List.of(
                CliRun.deployArguments(
                    repo.root(), dir.resolve("state"), arguments.toArray(String[]::new))));
    started.add(deploy);
    return deploy;
  }

  /** The provider made every attempt, and each failed but {@code waiting}, which only waited. */
  private static void assertEveryAttemptFailedBut(
      String waiting, PlanTimeSpy spy, Map<String, String> attempts) throws IOException {
    Map<String, Integer> exits = spy.exits();
    assertThat(exits).as("the provider made every attempt").containsOnlyKeys(attempts.keySet());
    assertThat(exits).containsEntry(waiting, 0);
    exits.remove(waiting);
    assertThat(exits).allSatisfy((attempt, exit) -> assertThat(exit).as(attempt).isNotZero());
  }

  @AfterEach
  void stopStarted() {
    started.forEach(Process::destroyForcibly);
  }

  private static List<SentMail> mails(Path outbox, String unit) {
    return Files.isDirectory(outbox)
        ? SentMail.in(outbox).stream().filter(mail -> mail.unit().equals(unit)).toList()
        : List.of();
  }

  private static Map<String, Integer> exits(PlanTimeSpy spy) {
    try {
      return spy.exits();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code livegate scan --scan plan} of the last commit, one unit at a time. */
  private static CliRun planScan(TestRepo repo) {
    return CliRun.withPath(
        "scan",
        "--repo",
        repo.root().toString(),
        "--base",
        "HEAD~1",
        "--scan",
        "plan",
        "--runner",
        "terraform",
        "--parallelism",
        "1");
  }

  /** Two accounts' units: dev/a and prod/b, each one resource, committed after an empty commit. */
  private TestRepo twoAccounts() {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "live\n");
    repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\nterraform.tfstate*\nspy.log\n");
    repo.commit("empty");
    for (String unit : List.of(PLANTER, VICTIM)) {
      String name = unit.substring(unit.indexOf('/') + 1);
      repo.write(unit + "/terragrunt.hcl", "inputs = {}\n")
          .write(unit + "/main.tf", "resource \"terraform_data\" \"" + name + "\" {}\n");
    }
    repo.commit("a and b");
    return repo;
  }

  /**
   * dev/a's provider, which the change ships in terraform's implied mirror {@code
   * terraform.d/plugins}, in dev/a (where the scans run terraform) and at the root (where a
   * deployment's commands start): it writes next to prod/b's code, into prod/ and into the root.
   */
  private static PlanTimeSpy planter(TestRepo repo) throws Exception {
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put(
        "plant a resource in prod/b",
        "printf 'resource \"terraform_data\" \"planted\" {}\\n' > ../../"
            + PLANTED.get(0)
            + " && ls ../../"
            + VICTIM);
    attempts.put("plant in the sibling account's directory", "echo x > ../../" + PLANTED.get(1));
    attempts.put("plant in the repository root", "echo x > ../../" + PLANTED.get(2));
    return planter(repo, attempts);
  }

  /** dev/a's provider making {@code attempts}, shipped as {@link #planter(TestRepo)} says. */
  private static PlanTimeSpy planter(TestRepo repo, Map<String, String> attempts) throws Exception {
    PlanTimeSpy spy = PlanTimeSpy.installInUnit(repo.root().resolve(PLANTER), attempts);
    Path mirror = repo.root().resolve(PLANTER).resolve("terraform.d");
    try (Stream<Path> files = Files.walk(mirror)) {
      for (Path file : files.toList()) {
        Path atRoot =
            repo.root().resolve("terraform.d").resolve(mirror.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(atRoot);
        } else {
          Files.copy(file, atRoot, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return spy;
  }

  private static void assertNothingPlanted(TestRepo repo) {
    for (String planted : PLANTED) {
      assertThat(repo.root().resolve(planted)).as(planted).doesNotExist();
    }
  }
}
