package io.livegate.core.vote;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.testing.Executions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApplyGateTest {
  private static final String VOTER = "platform-lead@example.com";
  private static final Instant AT = Instant.parse("2026-01-02T04:00:00Z");

  @Test
  void anExecutionApprovedByItsVotersMayBeApplied() {
    assertThat(ApplyGate.refusal(decided("approved"), List.of(vote(VOTER, Vote.Choice.APPROVE))))
        .isEmpty();
  }

  @Test
  void aDecisionRecordedWithoutVotesAppliesNothing() {
    assertThat(ApplyGate.refusal(decided("approved"), List.of()))
        .hasValue(
            "recorded as approved, but its votes do not approve it (0 approvals from listed"
                + " voters, 1 needed); nothing was applied");
  }

  @Test
  void votesOfPeopleWhoAreNotVotersDoNotCount() {
    assertThat(
            ApplyGate.refusal(
                decided("approved"), List.of(vote("intruder@example.com", Vote.Choice.APPROVE))))
        .isPresent();
  }

  @Test
  void anUndecidedOrRejectedExecutionIsNeverApplied() {
    assertThat(ApplyGate.refusal(decided(null), List.of(vote(VOTER, Vote.Choice.APPROVE))))
        .hasValue("not approved (decision none); nothing was applied");
    assertThat(ApplyGate.refusal(decided("rejected"), List.of(vote(VOTER, Vote.Choice.APPROVE))))
        .hasValue("not approved (decision rejected); nothing was applied");
  }

  private static Vote vote(String voter, Vote.Choice choice) {
    return new Vote(7, voter, choice, AT);
  }

  private static Execution decided(String decision) {
    Execution planned =
        Executions.of(
            7,
            "dev/app",
            "dev",
            ExecutionStatus.RUNNING,
            List.of(),
            new PlanSummary(1, 0, 0, List.of()));
    return new Execution(
        planned.id(),
        planned.deploymentId(),
        planned.name(),
        planned.spec(),
        planned.status(),
        planned.dependsOn(),
        planned.planArtifact(),
        planned.planSha256(),
        planned.planSummary(),
        planned.newResources(),
        decision,
        planned.createdAt(),
        planned.startedAt(),
        planned.finishedAt());
  }
}
