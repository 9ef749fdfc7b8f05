package io.livegate.cdk;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.cloudformation.include.CfnInclude;
import software.amazon.awscdk.services.iam.CfnRole;
import software.constructs.Construct;

/**
 * The plan and apply roles of one target account, for a CDK app that deploys into it: the plain
 * CloudFormation template {@value #TEMPLATE} (which a StackSet can roll out to every account as it
 * is) included with its parameters set. One template serves both ways, so the roles a StackSet
 * makes and the roles this construct makes cannot drift apart. The plan role reads everything and
 * writes only terraform's lock; each role trusts exactly the livegate task roles that assume it
 * (the livegate stack's outputs {@code PlanTaskRoleArn}, {@code PullRequestPlanTaskRoleArn} and
 * {@code ApplyTaskRoleArn}).
 */
public final class AccountRoles extends Construct {
  /** The template, relative to this module's directory. */
  public static final String TEMPLATE = "account-roles.template.json";

  /**
   * @param template the template file ({@value #TEMPLATE} in this module)
   * @param planTrusted the task roles that may assume the plan role
   * @param applyTrusted the task roles that may assume the apply role
   * @param stateBucketName the bucket of the account's terraform state
   * @param lockTableName terraform's DynamoDB lock table, or empty for the S3 lock file
   * @param applyPolicyArn the managed policy of the apply role
   * @param maxSessionSeconds the roles' longest session, at least livegate's roleSessionDuration
   */
  public record Props(
      Path template,
      List<String> planTrusted,
      List<String> applyTrusted,
      String stateBucketName,
      String lockTableName,
      String applyPolicyArn,
      int maxSessionSeconds) {}

  private final CfnInclude included;

  public AccountRoles(Construct scope, String id, Props props) {
    super(scope, id);
    this.included =
        CfnInclude.Builder.create(this, "Template")
            .templateFile(props.template().toString())
            .parameters(
                Map.of(
                    "PlanTrustedRoleArns", props.planTrusted(),
                    "ApplyTrustedRoleArns", props.applyTrusted(),
                    "StateBucketName", props.stateBucketName(),
                    "LockTableName", props.lockTableName(),
                    "ApplyPolicyArn", props.applyPolicyArn(),
                    "MaxSessionDuration", props.maxSessionSeconds()))
            .build();
    // Included with its parameters set, the template's one condition is decided at synthesis.
    Validations.of(Stack.of(this))
        .acknowledge(
            Acknowledgment.builder()
                .id("CloudFormation-Validate::W8003")
                .reason("LockTableName is a synthesis-time value: HasLockTable is meant constant")
                .build());
  }

  public CfnRole planRole() {
    return (CfnRole) included.getResource("PlanRole");
  }

  public CfnRole applyRole() {
    return (CfnRole) included.getResource("ApplyRole");
  }
}
