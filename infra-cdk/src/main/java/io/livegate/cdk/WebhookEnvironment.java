package io.livegate.cdk;

/**
 * Names of entry points that are being written on other branches: the webhook receiver, the
 * trigger's new variables, and pr-plan's S3 prefix. They mirror {@code
 * io.livegate.lambdas.webhook.WebhookWiring} and the pr-plan task; at the merge they give way to
 * those classes' constants, as {@link LivegateStack} already uses {@code TriggerWiring}'s. This is
 * the only place in this module that spells them.
 */
public final class WebhookEnvironment {
  /** The webhook receiver's handler (a RequestStreamHandler behind a Function URL). */
  public static final String HANDLER = "io.livegate.lambdas.webhook.WebhookHandler";

  public static final String WEBHOOK_SECRET = "LIVEGATE_WEBHOOK_SECRET_ARN";
  public static final String GITHUB_TOKEN_SECRET = "LIVEGATE_GITHUB_TOKEN_SECRET_ARN";
  public static final String REPOSITORY = "LIVEGATE_REPOSITORY";
  public static final String TRUNK = "LIVEGATE_TRUNK";
  public static final String LOCK_PARAMETER = "LIVEGATE_LOCK_PARAMETER";
  public static final String LOCK_SCOPE = "LIVEGATE_LOCK_SCOPE";
  public static final String ALLOW_FORK_PRS = "LIVEGATE_ALLOW_FORK_PRS";
  public static final String CLUSTER_ARN = "LIVEGATE_CLUSTER_ARN";
  public static final String SUBNET_IDS = "LIVEGATE_SUBNET_IDS";
  public static final String SECURITY_GROUP_IDS = "LIVEGATE_SECURITY_GROUP_IDS";

  /** The container that create-deploy-stack's and pr-plan's RunTask overrides name. */
  public static final String TASK_CONTAINER = "LIVEGATE_TASK_CONTAINER";

  public static final String CREATE_DEPLOY_STACK_TASK_DEFINITION =
      "LIVEGATE_CREATE_DEPLOY_STACK_TASK_DEFINITION";
  public static final String PR_PLAN_TASK_DEFINITION = "LIVEGATE_PR_PLAN_TASK_DEFINITION";

  /**
   * Where pr-plan writes its plans in the artifact bucket; its role may write nowhere else, so a
   * pull request's plan can never overwrite a deployment's ({@code plans/}, PlanArtifacts).
   */
  public static final String PR_PLAN_PREFIX = "pr-plans/";

  private WebhookEnvironment() {}
}
