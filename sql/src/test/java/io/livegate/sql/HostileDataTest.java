package io.livegate.sql;

import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Paths, refs and addresses come from pull requests: the metadb keeps them as data. */
class HostileDataTest {
  private static final String QUOTED = "account-0/it's a \"quoted\" unit";
  private static final String INJECTION = "account-0/'); DROP TABLE executions; --";
  private static final String SUBSHELL = "account-0/$(rm -rf ~)`id`";
  private static final String LONG = "account-0/" + "x".repeat(290);
  // The same as LONG in the part a name keeps: only the hash tells them apart.
  private static final String LONG_TOO = "account-0/y" + "x".repeat(289);
  private static final List<PlannedExecution> UNITS =
      List.of(
          unit(QUOTED, "account-0", 0, List.of()),
          unit("account-0/semi;colon", "account-0", 0, List.of()),
          unit(SUBSHELL, "account-0", 0, List.of()),
          unit("account-0/new\nline\ttab", "account-0", 0, List.of()),
          unit("account-0/a b", "account-0", 0, List.of()),
          unit("account-0/a-b", "account-0", 0, List.of()),
          unit("account-0/a/b", "account-0", 0, List.of()),
          unit(INJECTION, "account-0", 1, List.of(QUOTED, SUBSHELL)),
          unit("account-0/ünïcødé/日本語/🚀", "account-0", 1, List.of(QUOTED)),
          unit(LONG, "account-0", 2, List.of(INJECTION)),
          unit(LONG_TOO, "account-0", 2, List.of(INJECTION)));
  private static final List<String> ADDRESSES =
      List.of(
          "module.a[\"'); DROP TABLE votes; --\"].terraform_data.b", "terraform_data.c[\"$(x)\"]");

  private final TestEngine engine = TestEngine.fresh();
  private final Accounts accounts = SyntheticDeployments.accounts(1);

  private long deploy() {
    CreateDeploymentCommand command = SyntheticDeployments.command(1, accounts, UNITS);
    MergedPullRequest hostile =
        MergedPullRequest.withExactBase(
            "acme/live'; DROP TABLE deployments; --",
            1,
            "main",
            "feature/$(reboot)\n'; --",
            command.stack().base(),
            command.stack().head());
    return engine
        .create
        .create(
            new CreateDeploymentCommand(hostile, command.stack(), accounts, RunnerArgv.TERRAFORM))
        .deployment()
        .id();
  }

  @Test
  void oddUnitPathsAndRefsAreStoredAndReadBackIntact() {
    long id = deploy();

    Map<String, Execution> stored =
        engine.executions.list(id).stream()
            .collect(Collectors.toMap(Execution::unit, Function.identity()));
    assertThat(stored.keySet())
        .containsExactlyInAnyOrderElementsOf(UNITS.stream().map(PlannedExecution::unit).toList());
    for (PlannedExecution unit : UNITS) {
      Execution execution = stored.get(unit.unit());
      assertThat(execution.spec().dependsOn()).isEqualTo(unit.dependsOn());
      assertThat(execution.spec().planCommands().get(0)).contains("-chdir=" + unit.unit());
      assertThat(engine.executions.find(execution.id())).contains(execution);
      assertThat(engine.executions.findByName(execution.name())).contains(execution);
    }
    List<Deployment> deployments =
        engine.deployments.list("acme/live'; DROP TABLE deployments; --");
    assertThat(deployments)
        .singleElement()
        .satisfies(
            deployment ->
                assertThat(deployment.pullRequest().headRef())
                    .isEqualTo("feature/$(reboot)\n'; --"));
  }

  @Test
  void oddUnitsDeployAndRollBackUnderValidDistinctNames() {
    long id = deploy();

    engine.runToEnd(
        id,
        execution -> {
          if (execution.rollback()) {
            return ExecutionStatus.SUCCEEDED;
          }
          engine.executions.recordNewResources(execution.id(), ADDRESSES);
          return execution.unit().equals(LONG_TOO)
              ? ExecutionStatus.FAILED
              : ExecutionStatus.SUCCEEDED;
        });

    List<Execution> executions = engine.executions.list(id);
    assertThat(engine.deployments.find(id).orElseThrow().status())
        .isEqualTo(DeploymentStatus.FAILED);
    assertThat(executions).filteredOn(Execution::rollback).hasSize(UNITS.size());
    assertThat(executions)
        .filteredOn(Execution::rollback)
        .allSatisfy(
            rollback -> {
              assertThat(rollback.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
              assertThat(rollback.spec().destroyTargets()).isEqualTo(ADDRESSES);
            });
    assertThat(executions)
        .extracting(Execution::name)
        .allSatisfy(name -> assertThat(name).matches("[A-Za-z0-9_-]{1,80}"))
        .doesNotHaveDuplicates();
  }
}
