package io.livegate.core.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.testing.FlowPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The flow table, through the conformance check that every runtime's recorded flows must pass. */
class FlowPathTest {
  @Test
  void anApprovedFlowGoesFromPlanThroughTheVoteToSucceeded() {
    assertThat(
            FlowPath.requireComplete(
                List.of(
                    "Plan",
                    "RequestApproval",
                    "Decide",
                    "Apply",
                    "Succeeded: applied; new resources terraform_data.a"),
                FlowState.SUCCEEDED))
        .containsExactly(
            FlowState.PLAN,
            FlowState.REQUEST_APPROVAL,
            FlowState.DECIDE,
            FlowState.APPLY,
            FlowState.SUCCEEDED);
  }

  @Test
  void aRejectedOrFailedOrEmptyFlowEndsWhereTheTableAllows() {
    FlowPath.requireComplete(
        List.of("Plan", "RequestApproval", "Decide", "Rejected: rejected by vote"),
        FlowState.REJECTED);
    FlowPath.requireComplete(List.of("Plan", "Failed: plan exited with 1"), FlowState.FAILED);
    FlowPath.requireComplete(
        List.of("Plan", "RequestApproval", "Decide", "Apply", "Failed: apply exited with 1"),
        FlowState.FAILED);
    FlowPath.requireComplete(
        List.of(
            "Plan",
            "RequestApproval",
            "Decide",
            "Succeeded: no changes; skipped vote and apply (--skip-empty)"),
        FlowState.SUCCEEDED);
  }

  @Test
  void aResumedStateIsOneVisit() {
    assertThat(
            FlowPath.of(
                List.of(
                    "Plan", "RequestApproval", "Decide", "Decide: resumed", "Apply", "Succeeded")))
        .containsExactly(
            FlowState.PLAN,
            FlowState.REQUEST_APPROVAL,
            FlowState.DECIDE,
            FlowState.APPLY,
            FlowState.SUCCEEDED);
  }

  @Test
  void skippingTheVoteOrRepeatingAStateIsRefused() {
    assertThatThrownBy(
            () ->
                FlowPath.requireComplete(
                    List.of("Plan", "Apply", "Succeeded"), FlowState.SUCCEEDED))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("Plan does not lead to Apply");
    assertThatThrownBy(
            () -> FlowPath.requireComplete(List.of("Plan", "Succeeded"), FlowState.SUCCEEDED))
        .hasMessageStartingWith("Plan does not lead to Succeeded");
    assertThatThrownBy(
            () ->
                FlowPath.requireComplete(
                    List.of("Plan", "RequestApproval", "Decide", "Decide", "Apply", "Succeeded"),
                    FlowState.SUCCEEDED))
        .hasMessageStartingWith("Decide does not lead to Decide");
    assertThatThrownBy(
            () ->
                FlowPath.requireComplete(
                    List.of("Plan", "RequestApproval", "Decide", "Rejected"), FlowState.SUCCEEDED))
        .hasMessageStartingWith("the flow should end in Succeeded");
    assertThatThrownBy(
            () -> FlowPath.requireComplete(List.of("Decide", "Apply"), FlowState.SUCCEEDED))
        .hasMessageStartingWith("a flow starts at Plan");
  }
}
