package io.livegate.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.aws.EcsPullRequestPlanner;
import io.livegate.aws.EcsScanLauncher;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.pr.PlanUnitCommand;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.statemachine.RuntimeContract;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The commands that {@link EcsPullRequestPlanner} and {@link EcsScanLauncher} start parse back, in
 * the task's main, to exactly the pull request, unit or merge they were built from, however hostile
 * the unit path or branch name.
 */
class TasksTest {
  private static final String BASE = "1111111111111111111111111111111111111111";
  private static final String HEAD = "2222222222222222222222222222222222222222";

  @Test
  void aUnitCommandParsesBackToTheSamePullRequestAndUnit() {
    for (String unit :
        List.of(
            "app/a",
            "-rf/--help",
            "app/it's a \"unit\" $(touch /tmp/pwned); `id`",
            "@etc/passwd",
            "app/--unit=other")) {
      for (boolean fromFork : List.of(false, true)) {
        PullRequestHead head = new PullRequestHead("acme/live", 7, "main", BASE, HEAD, fromFork);

        Object parsed = leaf(EcsPullRequestPlanner.unitCommand(head, unit));

        assertThat(((Tasks.PrPlanUnit) parsed).command())
            .as(unit)
            .isEqualTo(new PlanUnitCommand(head, unit));
      }
    }
  }

  @Test
  void aDispatchCommandParsesBackToTheSamePullRequest() {
    PullRequestHead head = new PullRequestHead("acme/live", 12, "release/2025", BASE, HEAD, false);

    Object parsed = leaf(EcsPullRequestPlanner.dispatchCommand(head));

    assertThat(((Tasks.PrPlanDispatch) parsed).pullRequest.head()).isEqualTo(head);
  }

  @Test
  void aCreateDeployStackCommandParsesBackToTheSameMerge() {
    for (String headRef :
        List.of(
            "feature/a", "--merge-sha=" + BASE, "-h", "it's $(touch /tmp/pwned)", "@file", "")) {
      MergedPullRequest merge =
          MergedPullRequest.withExactBase("acme/live", 9, "main", headRef, BASE, HEAD);

      Object parsed = leaf(EcsScanLauncher.command(merge));

      assertThat(((Tasks.CreateDeployStack) parsed).merge()).as(headRef).isEqualTo(merge);
    }
    MergedPullRequest rebased =
        MergedPullRequest.fromGitHub("acme/live", 9, "main", "feature/a", BASE, HEAD, BASE, 3);
    Object parsed = leaf(EcsScanLauncher.command(rebased));
    assertThat(((Tasks.CreateDeployStack) parsed).merge()).isEqualTo(rebased);
  }

  @Test
  void aPrPlanTaskIsWiredWithoutAnyMetadbSetting() {
    Map<String, String> environment = new HashMap<>();
    environment.put("AWS_REGION", "us-east-1");
    environment.put("AWS_ACCESS_KEY_ID", "testing");
    environment.put("AWS_SECRET_ACCESS_KEY", "testing");
    environment.put(RuntimeContract.Tasks.REPO_URL, "https://github.com/acme/live.git");
    environment.put(RuntimeContract.Tasks.ACCOUNTS, "account \"apps\" {\n  path = \"app\"\n}\n");
    environment.put(RuntimeContract.Ecs.CLUSTER, "livegate");
    environment.put(RuntimeContract.Ecs.SUBNETS, "subnet-1");
    environment.put(RuntimeContract.Ecs.SECURITY_GROUPS, "sg-1");
    environment.put(RuntimeContract.Ecs.CONTAINER, "tasks");
    environment.put(RuntimeContract.PullRequestPlans.TASK_DEFINITION, "pr-plan");
    TaskWiring wiring =
        TaskWiring.fromEnvironment(environment, new PrintWriter(new StringWriter()));

    assertThat(wiring.prPlanDispatch()).isNotNull();
    assertThat(wiring.prPlanUnit("app/a")).isNotNull();
  }

  private static Object leaf(List<String> argv) {
    CommandLine.ParseResult result =
        Tasks.commandLine(Map.of(), new PrintWriter(new StringWriter()))
            .parseArgs(argv.toArray(String[]::new));
    while (result.hasSubcommand()) {
      result = result.subcommand();
    }
    return result.commandSpec().userObject();
  }
}
