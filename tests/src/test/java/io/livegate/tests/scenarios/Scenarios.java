package io.livegate.tests.scenarios;

import static io.livegate.core.deploy.ExecutionStatus.ABORTED;
import static io.livegate.core.deploy.ExecutionStatus.FAILED;
import static io.livegate.core.deploy.ExecutionStatus.REJECTED;
import static io.livegate.core.deploy.ExecutionStatus.SUCCEEDED;

import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.vote.Vote;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The conformance table: every scenario here runs through the local executor and through moto's
 * Step Functions, and both must reach the outcome it names. Add a scenario here and it runs on
 * both.
 */
public final class Scenarios {
  private static final Duration VOTE_TIMEOUT = Duration.ofMinutes(10);

  /**
   * Long enough for the harnesses to vote on every other unit on a loaded machine (a load of 8 on 2
   * cores makes the few seconds a quiet one needs several times as long; 8 s was too short), short
   * enough to wait for. Only a scenario whose unit really times out waits for all of it.
   */
  public static final Duration SHORT_VOTE_TIMEOUT = Duration.ofSeconds(30);

  private Scenarios() {}

  public static List<Scenario> all() {
    return List.of(
        new Scenario(
            "reference scenario, every unit approved",
            LiveRepos::reference,
            approveAll(),
            VOTE_TIMEOUT,
            false,
            new Outcome(
                DeploymentStatus.SUCCEEDED,
                Stream.of("dev-account", "shared-services-account")
                    .flatMap(
                        account ->
                            Stream.of(
                                    "global",
                                    "us-west-2/env-one/bar",
                                    "us-west-2/env-one/baz",
                                    "us-west-2/env-one/doo",
                                    "us-west-2/env-one/foo")
                                .map(unit -> account + "/" + unit))
                    .collect(
                        LinkedHashMap::new, (map, unit) -> map.put(unit, SUCCEEDED), Map::putAll))),
        new Scenario(
            "b rejected",
            LiveRepos::apps,
            unit -> unit.unit().equals("app/b") ? Vote.Choice.REJECT : Vote.Choice.APPROVE,
            VOTE_TIMEOUT,
            false,
            new Outcome(
                DeploymentStatus.REJECTED,
                Map.of(
                    "app/a", SUCCEEDED, "app/b", REJECTED, "app/c", ABORTED, "app/d", SUCCEEDED))),
        new Scenario(
            "b's apply fails, the rollback destroys what a, b and d created",
            LiveRepos::appsWithFailingApply,
            approveAll(),
            VOTE_TIMEOUT,
            false,
            new Outcome(
                DeploymentStatus.FAILED,
                Map.of(
                    "app/a", SUCCEEDED,
                    "app/b", FAILED,
                    "app/c", ABORTED,
                    "app/d", SUCCEEDED,
                    "app/a (rollback)", SUCCEEDED,
                    "app/b (rollback)", SUCCEEDED,
                    "app/d (rollback)", SUCCEEDED))),
        new Scenario(
            "no vote on a within the vote timeout",
            LiveRepos::apps,
            unit -> unit.unit().equals("app/a") ? null : Vote.Choice.APPROVE,
            SHORT_VOTE_TIMEOUT,
            false,
            new Outcome(
                DeploymentStatus.REJECTED,
                Map.of("app/a", REJECTED, "app/b", ABORTED, "app/c", ABORTED, "app/d", SUCCEEDED))),
        new Scenario(
            "skip-empty: e's plan has no changes and succeeds without a vote",
            LiveRepos::withEmptyPlan,
            // Nobody votes on e: were its vote not skipped, it would time out as a rejection.
            unit -> unit.unit().equals("app/e") ? null : Vote.Choice.APPROVE,
            SHORT_VOTE_TIMEOUT,
            true,
            new Outcome(
                DeploymentStatus.SUCCEEDED, Map.of("app/a", SUCCEEDED, "app/e", SUCCEEDED))),
        new Scenario(
            "a merge deletes a and b (b on a): both destroyed after votes, b first",
            LiveRepos::retired,
            approveAll(),
            VOTE_TIMEOUT,
            false,
            new Outcome(
                DeploymentStatus.SUCCEEDED,
                Map.of(
                    "app/a (destroy)", SUCCEEDED,
                    "app/b (destroy)", SUCCEEDED,
                    "app/c", SUCCEEDED))),
        new Scenario(
            "the destroy of b is rejected: a, which b depended on, is not destroyed",
            LiveRepos::retired,
            unit -> unit.unit().equals("app/b") ? Vote.Choice.REJECT : Vote.Choice.APPROVE,
            VOTE_TIMEOUT,
            false,
            new Outcome(
                DeploymentStatus.REJECTED,
                Map.of(
                    "app/a (destroy)", ABORTED,
                    "app/b (destroy)", REJECTED,
                    "app/c", SUCCEEDED))));
  }

  private static Function<Execution, Vote.Choice> approveAll() {
    return execution -> Vote.Choice.APPROVE;
  }
}
