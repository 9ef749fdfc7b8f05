package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.livegate.core.runner.PrivateTemp;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.runner.Sandbox;
import io.livegate.core.unit.UnitRunner;
import io.livegate.scan.SandboxedPlan;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.scan.testing.TestRepo;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The code being deployed runs at plan time, before anyone voted: a provider from a filesystem
 * mirror that is really a script tries to take what would let it approve itself.
 */
@Tag("terraform")
class PlanTimeCodeTest {
  private static final String UNIT = "app";

  @TempDir Path dir;

  @Test
  void aPlanTimeProviderSeesNoLivegateSecretInItsEnvironment() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    PlanTimeSpy spy =
        PlanTimeSpy.install(
            dir,
            repo.root().resolve(UNIT),
            Map.of("environment", "env | grep -E '^[A-Za-z_][A-Za-z0-9_]*=' | sort"));
    Map<String, String> environment = new HashMap<>(spy.environment());
    environment.put("LIVEGATE_WEBHOOK_SECRET", "webhook-secret-value");
    environment.put("LIVEGATE_GITHUB_TOKEN", "github-token-value");
    environment.put("LIVEGATE_TASK_TOKEN", "task-token-value");
    environment.put("LIVEGATE_DB_PASSWORD", "metadb-password-value");
    environment.put("TF_IN_AUTOMATION", "1");
    TerraRun terraRun =
        new TerraRun(
            new SandboxedPlan.Tools(
                new ProcessCommandRunner(),
                RunnerArgv.TERRAFORM,
                Sandbox.none("terraform runs without a sandbox"),
                environment),
            repo.root(),
            Files.createDirectories(dir.resolve("plans")),
            SourceAccess.in(dir.resolve("state")));

    UnitRunner.Step<UnitRunner.Plan> plan =
        terraRun.plan(
            UNIT, "d1-app", RunnerArgv.TERRAFORM.planCommands(UNIT, null, List.of()), null);

    System.out.println("what the plan-time provider saw:\n" + spy.log());
    assertThat(plan.error()).as("the spy is no real provider").isNotNull();
    assertThat(spy.lines()).as("the spy ran at plan time").contains("== environment");
    assertThat(spy.lines()).contains("TF_IN_AUTOMATION=1");
    assertThat(spy.log())
        .doesNotContain("LIVEGATE_")
        .doesNotContain("webhook-secret-value")
        .doesNotContain("github-token-value")
        .doesNotContain("task-token-value")
        .doesNotContain("metadb-password-value");
  }

  @Test
  void inTheSandboxAPlanTimeProviderCannotReadTheStateDirectoryNorOverwriteAnotherUnitsPlan()
      throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    Path state = Files.createDirectories(dir.resolve("state"));
    Path voteKey = Files.writeString(state.resolve("vote-secret"), "vote-key-value");
    Path plans = Files.createDirectories(state.resolve("plans"));
    Path otherPlan = Files.writeString(plans.resolve("d1-other.tfplan"), "the approved plan");
    long livegate = ProcessHandle.current().pid();
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put("read the vote key", "cat " + voteKey);
    attempts.put("list the state directory", "ls -A " + state);
    attempts.put("overwrite another unit's plan", "echo swapped > " + otherPlan);
    attempts.put("read livegate's environment", "tr '\\0' '\\n' < /proc/" + livegate + "/environ");
    attempts.put(
        "read the vote key through livegate's root", "cat /proc/" + livegate + "/root" + voteKey);
    attempts.put("see other processes", "ls /proc | grep -c '^[0-9]'");
    PlanTimeSpy spy =
        PlanTimeSpy.install(repo.root().resolve(".spy"), repo.root().resolve(UNIT), attempts);

    UnitRunner.Step<UnitRunner.Plan> plan = planInTheSandbox(repo, state, plans, spy);

    System.out.println("what the sandboxed plan-time provider saw:\n" + spy.log());
    System.out.println("the plan: " + plan.error());
    assertThat(plan.error()).as("the spy is no real provider").isNotNull();
    assertThat(spy.lines()).as("the spy ran at plan time").contains("== read the vote key");
    assertThat(spy.log()).doesNotContain("vote-key-value").doesNotContain("LIVEGATE_");
    assertThat(spy.lines())
        .as("the state directory looks empty but for the plan being written")
        .containsSubsequence("== list the state directory", "plans", "-> exit 0");
    assertThat(Files.readString(otherPlan)).isEqualTo("the approved plan");
    assertThat(Files.readString(voteKey)).isEqualTo("vote-key-value");
  }

  @Test
  void inTheSandboxAPlanTimeProviderCannotReachLivegatesOwnTemporaryFilesInTmp() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    Path state = Files.createDirectories(dir.resolve("state"));
    Path plans = Files.createDirectories(state.resolve("plans"));
    // the output of another command livegate runs meanwhile, where livegate keeps it
    Path otherRun = PrivateTemp.directory("run-");
    Path otherOutput = Files.writeString(otherRun.resolve("stdout"), "output-of-another-command");
    // only paths this test made: /tmp is shared with everything else on the machine
    Map<String, String> attempts = new LinkedHashMap<>();
    attempts.put(
        "find the file livegate reads this command's output from",
        "f=$(readlink /proc/$PPID/fd/1) && echo \"terraform writes to $f\" && ls \"$f\"");
    attempts.put("read another command's output", "cat " + otherOutput);
    attempts.put(
        "rewrite another command's output", "echo forged-by-the-provider >> " + otherOutput);
    attempts.put(
        "leave a file beside another command's output", "echo planted > " + otherRun + "/planted");
    PlanTimeSpy spy =
        PlanTimeSpy.install(repo.root().resolve(".spy"), repo.root().resolve(UNIT), attempts);

    UnitRunner.Step<UnitRunner.Plan> plan = planInTheSandbox(repo, state, plans, spy);

    System.out.println("what the sandboxed plan-time provider saw in /tmp:\n" + spy.log());
    assertThat(plan.error()).as("the spy is no real provider").isNotNull();
    assertThat(spy.exits())
        .as("every attempt failed")
        .containsOnlyKeys(attempts.keySet())
        .allSatisfy((attempt, exit) -> assertThat(exit).as(attempt).isNotZero());
    assertThat(spy.log()).doesNotContain("output-of-another-command");
    assertThat(Files.readString(otherOutput)).isEqualTo("output-of-another-command");
    assertThat(otherRun.resolve("planted")).doesNotExist();
  }

  @Test
  void runAsRootAPlanTimeProviderCanNeitherUnmountNorTraceNorReachLivegateNorCastAStolenVote()
      throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(UNIT + "/main.tf", "resource \"terraform_data\" \"app\" {}\n");
    Path state = Files.createDirectories(dir.resolve("state"));
    Path plans = Files.createDirectories(state.resolve("plans"));
    List<String> votesCast = new CopyOnWriteArrayList<>();
    HttpServer voteServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    voteServer.createContext(
        "/",
        exchange -> {
          votesCast.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    voteServer.start();
    try {
      // another unit's vote mail, waiting in the outbox for its voter
      Path outbox = Files.createDirectories(state.resolve("outbox"));
      Files.writeString(
          outbox.resolve("0001-vote-other.eml"),
          "Approve: http://127.0.0.1:"
              + voteServer.getAddress().getPort()
              + "/vote/d1-other/approve?token=stolen\n");
      long livegate = ProcessHandle.current().pid();
      Map<String, String> attempts = new LinkedHashMap<>();
      attempts.put("keep a capability", "grep CapEff /proc/self/status | grep -v 'CapEff:\\s*0*$'");
      attempts.put("unmount the tmpfs over the state directory", "umount -l " + state);
      attempts.put("unmount /proc", "umount -l /proc");
      attempts.put("mount a fresh /proc", "mount -t proc proc /proc");
      attempts.put("make a user namespace to mount in", "unshare -Urm true");
      attempts.put("make a mount namespace", "unshare -m true");
      attempts.put("trace the sandbox's init", "strace -o /dev/null -p 1");
      attempts.put("trace a child", "strace -o /dev/null true");
      attempts.put("read livegate's environment", "cat /proc/" + livegate + "/environ");
      attempts.put("read livegate's memory", "head -c 16 /proc/" + livegate + "/mem > /dev/null");
      attempts.put(
          "find livegate among the processes",
          "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done | grep -E '^\\S*java '");
      attempts.put("read the outbox", "cat " + outbox + "/*");
      attempts.put(
          "read the JVMs' performance data", "ls -A /tmp/hsperfdata_* 2>/dev/null | grep '^[0-9]'");
      attempts.put(
          "cast the vote another unit's mail holds",
          "link=$(grep -rhoa 'http://127[^ ]*' " + state + ") && curl -fsS -X POST \"$link\"");
      PlanTimeSpy spy =
          PlanTimeSpy.install(repo.root().resolve(".spy"), repo.root().resolve(UNIT), attempts);

      TerraRun.Step<TerraRun.Plan> plan = planInTheSandbox(repo, state, plans, spy);

      System.out.println("livegate runs as " + System.getProperty("user.name"));
      System.out.println("what the sandboxed plan-time provider tried and saw:\n" + spy.log());
      assertThat(plan.error()).as("the spy is no real provider").isNotNull();
      assertThat(spy.exits())
          .as("the spy ran at plan time, and every attempt failed")
          .containsOnlyKeys(attempts.keySet())
          .allSatisfy((attempt, exit) -> assertThat(exit).as(attempt).isNotZero());
      assertThat(votesCast).as("what reached the vote server").isEmpty();
      assertThat(spy.log()).doesNotContain("token=stolen");
    } finally {
      voteServer.stop(0);
    }
  }

  /**
   * The unit's plan in the bubblewrap sandbox that hides {@code state}, with the spy as provider.
   */
  private static UnitRunner.Step<UnitRunner.Plan> planInTheSandbox(
      TestRepo repo, Path state, Path plans, PlanTimeSpy spy) {
    Sandbox sandbox = BubblewrapSandbox.find(List.of(state)).orElseThrow();
    TerraRun terraRun =
        new TerraRun(
            new SandboxedPlan.Tools(
                new ProcessCommandRunner(), RunnerArgv.TERRAFORM, sandbox, spy.environment()),
            repo.root(),
            plans,
            SourceAccess.in(state));
    return terraRun.plan(
        UNIT, "d1-app", RunnerArgv.TERRAFORM.planCommands(UNIT, null, List.of()), null);
  }
}
