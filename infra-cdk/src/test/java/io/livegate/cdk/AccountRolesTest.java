package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;

/**
 * The account bootstrap: the plain template's roles and their trust, as the construct includes it
 * into a stack (cfn-lint checks the template itself in the integration-test phase).
 */
class AccountRolesTest {
  private static final String PLAN_TASK =
      "arn:aws:iam::999999999999:role/Livegate-TerraRunPlanTaskRole";
  private static final String PR_PLAN_TASK =
      "arn:aws:iam::999999999999:role/Livegate-PrPlanUnitTaskRole";
  private static final String APPLY_TASK =
      "arn:aws:iam::999999999999:role/Livegate-TerraRunApplyTaskRole";

  private final JsonNode template = synth("");

  private static JsonNode synth(String lockTable) {
    App app = new App();
    Stack stack = new Stack(app, "Account");
    new AccountRoles(
        stack,
        "roles",
        new AccountRoles.Props(
            Path.of(AccountRoles.TEMPLATE),
            List.of(PLAN_TASK, PR_PLAN_TASK),
            List.of(APPLY_TASK),
            "acme-terraform-state",
            lockTable,
            "arn:aws:iam::aws:policy/AdministratorAccess",
            14400));
    return Iam.JSON.valueToTree(Template.fromStack(stack).toJSON());
  }

  private JsonNode role(JsonNode template, String id) {
    return template.path("Resources").path(id).path("Properties");
  }

  private static List<String> trusted(JsonNode role) {
    JsonNode statements = role.path("AssumeRolePolicyDocument").path("Statement");
    assertThat(statements).hasSize(1);
    JsonNode statement = statements.get(0);
    assertThat(statement.path("Effect").asText()).isEqualTo("Allow");
    assertThat(statement.path("Action").asText()).isEqualTo("sts:AssumeRole");
    assertThat(statement.has("Condition")).isFalse();
    return Iam.JSON.convertValue(
        statement.path("Principal").path("AWS"),
        Iam.JSON.getTypeFactory().constructCollectionType(List.class, String.class));
  }

  @Test
  void thePlanRoleTrustsOnlyThePlanTaskRolesAndTheApplyRoleOnlyTheApplyTaskRole() {
    assertThat(trusted(role(template, "PlanRole"))).containsExactly(PLAN_TASK, PR_PLAN_TASK);
    assertThat(trusted(role(template, "ApplyRole"))).containsExactly(APPLY_TASK);
  }

  @Test
  void thePlanRoleReadsEverythingAndWritesOnlyTheStateLock() {
    JsonNode plan = role(template, "PlanRole");
    assertThat(plan.path("ManagedPolicyArns").toString()).contains("policy/ReadOnlyAccess");
    assertThat(plan.path("ManagedPolicyArns")).hasSize(1);
    JsonNode statements = plan.path("Policies").get(0).path("PolicyDocument").path("Statement");
    for (JsonNode statement : statements) {
      if (statement.has("Fn::If")) {
        // The lock table's statement, kept only with a lock table.
        assertThat(statement.path("Fn::If").get(0).asText()).isEqualTo("HasLockTable");
        assertThat(statement.path("Fn::If").get(1).path("Action").toString())
            .contains("dynamodb:PutItem");
        continue;
      }
      String actions = statement.path("Action").toString();
      assertThat(actions).doesNotContain("dynamodb:");
      if (actions.contains("s3:PutObject") || actions.contains("s3:DeleteObject")) {
        assertThat(statement.path("Resource").toString()).contains("acme-terraform-state/*.tflock");
      } else {
        assertThat(actions).contains("s3:GetObject", "s3:ListBucket");
      }
    }
    // Without a lock table the condition is false; with one, true and naming the table.
    assertThat(hasLockTable(template)).isEqualTo("[\"\",\"\"]");
    JsonNode locking = synth("acme-terraform-locks");
    assertThat(hasLockTable(locking)).isEqualTo("[\"acme-terraform-locks\",\"\"]");
    assertThat(role(locking, "PlanRole").path("Policies").toString())
        .contains("table/acme-terraform-locks");
  }

  private static String hasLockTable(JsonNode template) {
    return template
        .path("Conditions")
        .path("HasLockTable")
        .path("Fn::Not")
        .get(0)
        .path("Fn::Equals")
        .toString();
  }

  @Test
  void theApplyRoleGetsTheChosenPolicyAndBothLastTheConfiguredSession() {
    JsonNode apply = role(template, "ApplyRole");
    assertThat(apply.path("ManagedPolicyArns").get(0).asText())
        .isEqualTo("arn:aws:iam::aws:policy/AdministratorAccess");
    assertThat(apply.path("MaxSessionDuration").asInt()).isEqualTo(14400);
    assertThat(role(template, "PlanRole").path("MaxSessionDuration").asInt()).isEqualTo(14400);
    assertThat(template.path("Outputs").has("PlanRoleArn")).isTrue();
    assertThat(template.path("Outputs").has("ApplyRoleArn")).isTrue();
  }
}
