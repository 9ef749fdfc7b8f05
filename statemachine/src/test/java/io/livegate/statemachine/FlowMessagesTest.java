package io.livegate.statemachine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.PlanSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The flow's JSON documents round-trip, and malformed ones are refused with the field named. */
class FlowMessagesTest {
  private static final String SHA = "a".repeat(64);

  @Test
  void inputPlanAndApprovalRequestRoundTrip() {
    FlowInput input = new FlowInput(12, "d3-e12-bar", 3, "dev/bar", "dev", false, 600);
    assertThat(FlowInput.fromJson(input.toJson())).isEqualTo(input);

    PlanResult plan =
        new PlanResult(
            "plans/d3/e12.tfplan",
            SHA,
            new PlanSummary(1, 2, 3, List.of("registry.terraform.io/hashicorp/aws")),
            "https://logs/e12");
    assertThat(PlanResult.fromJson(plan.toJson())).isEqualTo(plan);

    ApprovalRequest request = new ApprovalRequest("token-1", 12, "d3-e12-bar", plan);
    assertThat(ApprovalRequest.fromJson(request.toJson())).isEqualTo(request);
  }

  @Test
  void malformedDocumentsNameTheirField() {
    assertThatThrownBy(() -> FlowInput.fromJson("not json"))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("not JSON");
    assertThatThrownBy(() -> FlowInput.fromJson("[1]")).hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> FlowInput.fromJson("{\"executionId\":\"12\"}"))
        .hasMessageContaining("'executionId'");
    assertThatThrownBy(
            () ->
                PlanResult.fromJson(
                    "{\"artifact\":\"k\",\"sha256\":\"$(rm -rf /)\",\"add\":1,\"change\":0,\"destroy\":0}"))
        .hasMessageContaining("'sha256'");
    assertThatThrownBy(
            () ->
                PlanResult.fromJson(
                    "{\"artifact\":\"k\",\"sha256\":\""
                        + SHA
                        + "\",\"add\":-1,\"change\":0,\"destroy\":0}"))
        .hasMessageContaining("'add'");
    assertThatThrownBy(() -> FlowOutput.fromJson("{\"executionId\":1,\"status\":\"applied\"}"))
        .hasMessageContaining("unknown status 'applied'");
    assertThatThrownBy(() -> ApprovalRequest.fromJson("{\"taskToken\":\"t\",\"executionId\":1}"))
        .hasMessageContaining("'executionName'");
  }
}
