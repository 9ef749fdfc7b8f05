package io.livegate.cli.local;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.testing.Executions;
import io.livegate.core.testing.Golden;
import io.livegate.core.vote.DeploymentView;
import io.livegate.core.vote.Vote;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The status page of a deployment in progress, held to a golden file. */
class StatusPageTest {
  @Test
  void theStatusPageDrawsEveryUnitWithItsStatusAndStep() {
    PlanSummary planned = new PlanSummary(1, 0, 0, List.of());
    DeploymentView view =
        new DeploymentView(
            new Deployment(
                1,
                MergedPullRequest.withExactBase(
                    "acme/live",
                    42,
                    "main",
                    "feature",
                    "1111111111111111111111111111111111111111",
                    "2222222222222222222222222222222222222222"),
                DeploymentStatus.RUNNING,
                1,
                true,
                Executions.CREATED,
                Executions.CREATED,
                null,
                "1111111111111111111111111111111111111111",
                null),
            List.of(
                Executions.of(
                    1, "dev/global", "dev", ExecutionStatus.SUCCEEDED, List.of(), planned),
                Executions.of(2, "dev/app", "dev", ExecutionStatus.RUNNING, List.of(1L), planned),
                Executions.of(3, "dev/<db>", "dev", ExecutionStatus.WAITING, List.of(1L), null)),
            Map.of(1L, List.<Vote>of(), 2L, List.<Vote>of(), 3L, List.<Vote>of()));

    Golden.assertMatches(
        "status-page.html", StatusPage.render(view, Map.of(2L, "Decide", 1L, "Succeeded")));
  }
}
