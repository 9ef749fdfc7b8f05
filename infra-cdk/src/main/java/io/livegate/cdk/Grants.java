package io.livegate.cdk;

import io.livegate.statemachine.RuntimeContract;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ecs.FargateTaskDefinition;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * Who may do what: every role's permissions, one method per role, each granting exactly the actions
 * its entry point calls on the resources it calls them on (IamBoundariesTest holds them).
 *
 * <p>The grants live here rather than beside each role for two reasons. The questions a review asks
 * cut across roles (who may assume which account role, who may read which secret, who may start
 * which task), and one file answers them. And several roles are granted on resources built after
 * them: terra-run-plan answers the task tokens of the flow that runs it, and the trigger and the
 * webhook start tasks and flows built before them; beside each role, such a role's grants would be
 * split over two constructs.
 *
 * <p>CDK adds a few grants itself where resources are wired, and they stay there: each task's
 * execution role pulls the image, writes its log group and reads the accounts parameter ({@link
 * Tasks}); the deploy flow's role delivers its logs ({@link Flow}'s state machine); the trigger's
 * role sends to the dead-letter queue ({@link Flow#sendStatusChangesTo}). The roles are created by
 * {@link FunctionFactory}, {@link Tasks} and {@link Flow}'s state machine.
 */
public final class Grants extends Construct {
  /**
   * @param triggerArn the trigger's live alias, which create-deploy-stack and pr-plan-dispatch
   *     invoke
   * @param planRoleArns the accounts' plan roles
   * @param applyRoleArns the accounts' apply roles
   * @param createDeployStackPlans whether create-deploy-stack plans to find changes ({@code scan}
   *     is {@code plan}), so that it assumes the plan roles
   * @param driftReconcile whether the drift task queues drift reconciles (the config's {@code
   *     driftReconcile}), so that it reads the metadb and invokes the trigger
   */
  public record Props(
      Metadb metadb,
      Secrets secrets,
      Tasks tasks,
      Flow flow,
      Functions functions,
      String triggerArn,
      List<String> planRoleArns,
      List<String> applyRoleArns,
      boolean createDeployStackPlans,
      boolean driftReconcile) {}

  private final Props props;
  private final Stack stack;
  private final ISecret metadbSecret;
  private final StateMachine stateMachine;

  public Grants(Construct scope, String id, Props props) {
    super(scope, id);
    this.props = props;
    this.stack = Stack.of(this);
    this.metadbSecret = props.metadb().secret();
    this.stateMachine = props.flow().stateMachine();
    migrate();
    createDeployStack();
    prPlanUnit();
    prPlanDispatch();
    terraRunPlan();
    terraRunApply();
    deployFlow();
    approvalResponse();
    approvalRequest();
    drift();
    trigger();
    webhook();
    admin();
  }

  private void migrate() {
    Function migrate = props.metadb().migrate();
    vpcFunction(migrate);
    readSecret(migrate.getRole(), metadbSecret);
  }

  /** create-deploy-stack reports to the trigger, also a failed scan; it never touches the lock. */
  private void createDeployStack() {
    IRole role = props.tasks().createDeployStack().getTaskRole();
    readSecret(role, metadbSecret);
    readSecret(role, props.secrets().githubToken());
    allow(role, List.of("lambda:InvokeFunction"), List.of(props.triggerArn()));
    if (props.createDeployStackPlans()) {
      assume(role, props.planRoleArns());
    }
  }

  /**
   * pr-plan-unit runs the pull request's code while it plans: it may assume the plan roles and
   * nothing else, cannot start tasks, and reads neither the metadb nor the vote-link key.
   */
  private void prPlanUnit() {
    IRole role = props.tasks().prPlanUnit().getTaskRole();
    readSecret(role, props.secrets().githubToken());
    props.tasks().moduleSourcesToken().ifPresent(secret -> readSecret(role, secret));
    assume(role, props.planRoleArns());
  }

  /**
   * pr-plan-dispatch runs none of the pull request's code: it may start pr-plan-unit and invoke the
   * trigger, and assumes no role.
   */
  private void prPlanDispatch() {
    IRole role = props.tasks().prPlanDispatch().getTaskRole();
    readSecret(role, props.secrets().githubToken());
    runTask(role, props.tasks().prPlanUnit());
    allow(role, List.of("lambda:InvokeFunction"), List.of(props.triggerArn()));
  }

  /** terra-run's Plan writes the plan file, assumes only plan roles and answers its task token. */
  private void terraRunPlan() {
    IRole role = props.tasks().terraRunPlan().getTaskRole();
    readSecret(role, metadbSecret);
    readSecret(role, props.secrets().githubToken());
    props.tasks().moduleSourcesToken().ifPresent(secret -> readSecret(role, secret));
    allow(role, List.of("s3:PutObject"), List.of(plans()));
    executionLogs(role);
    assume(role, props.planRoleArns());
    stateMachine.grantTaskResponse(role);
  }

  /** terra-run's Apply reads the approved plan file and assumes only apply roles. */
  private void terraRunApply() {
    IRole role = props.tasks().terraRunApply().getTaskRole();
    readSecret(role, metadbSecret);
    readSecret(role, props.secrets().githubToken());
    props.tasks().moduleSourcesToken().ifPresent(secret -> readSecret(role, secret));
    allow(role, List.of("s3:GetObject"), List.of(plans()));
    executionLogs(role);
    // how each apply ended (aws S3KeptOutputs), read by the retry of a task killed before it
    // recorded the outcome, so a failed apply is not applied again
    allow(
        role,
        List.of("s3:GetObject", "s3:PutObject"),
        List.of(
            props
                .tasks()
                .artifacts()
                .arnForObjects(RuntimeContract.Artifacts.APPLY_OUTPUTS_PREFIX + "*")));
    assume(role, props.applyRoleArns());
  }

  /** The deploy flow runs the two terra-run tasks and publishes approval requests. */
  private void deployFlow() {
    IRole role = stateMachine.getRole();
    runTask(role, props.tasks().terraRunPlan());
    runTask(role, props.tasks().terraRunApply());
    allow(role, List.of("ecs:StopTask", "ecs:DescribeTasks"), List.of(clusterTasks()));
    // runTask.sync watches the task through this managed rule, which Step Functions creates.
    allow(
        role,
        List.of("events:PutTargets", "events:PutRule", "events:DescribeRule"),
        List.of(
            stack.formatArn(
                ArnComponents.builder()
                    .service("events")
                    .resource("rule")
                    .resourceName("StepFunctionsGetEventsForECSTaskRule")
                    .build())));
    allow(role, List.of("sns:Publish"), List.of(props.flow().approvalTopic().getTopicArn()));
  }

  /** approval-response records votes, shows the plan file and answers the task token. */
  private void approvalResponse() {
    Function function = props.functions().approvalResponse();
    vpcFunction(function);
    readSecret(function.getRole(), metadbSecret);
    readSecret(function.getRole(), props.secrets().voteKey());
    allow(function.getRole(), List.of("s3:GetObject"), List.of(plans()));
    stateMachine.grantTaskResponse(function.getRole());
  }

  /**
   * The scheduled drift task plans with the plan roles, reads the GitHub token, and mails the
   * voters from the identity; with driftReconcile it also reads the metadb and invokes the trigger,
   * as create-deploy-stack does. Never the apply role.
   */
  private void drift() {
    props
        .tasks()
        .drift()
        .ifPresent(
            definition -> {
              IRole role = definition.getTaskRole();
              readSecret(role, props.secrets().githubToken());
              assume(role, props.planRoleArns());
              props.functions().mailFrom().grantSendEmail(role);
              if (props.driftReconcile()) {
                readSecret(role, metadbSecret);
                allow(role, List.of("lambda:InvokeFunction"), List.of(props.triggerArn()));
              }
            });
  }

  /**
   * approval-request is the only function that sends mail, and only from the identity (the drift
   * task, when scheduled, mails too).
   */
  private void approvalRequest() {
    Function function = props.functions().approvalRequest();
    vpcFunction(function);
    readSecret(function.getRole(), metadbSecret);
    readSecret(function.getRole(), props.secrets().voteKey());
    props.functions().mailFrom().grantSendEmail(function.getRole());
    stateMachine.grantTaskResponse(function.getRole());
  }

  /**
   * The trigger starts and stops flows, starts create-deploy-stack, fails the task token of a Plan
   * task that stopped without answering it, and is the only one that releases the merge lock.
   */
  private void trigger() {
    Function function = props.functions().trigger();
    IRole role = function.getRole();
    vpcFunction(function);
    readSecret(role, metadbSecret);
    readSecret(role, props.secrets().githubToken());
    stateMachine.grantStartExecution(role);
    stateMachine.grantExecution(role, "states:StopExecution");
    lock(role, "ssm:GetParameter", "ssm:PutParameter", "ssm:DeleteParameter");
    runTask(role, props.tasks().createDeployStack());
    // A terra-run plan task that stopped without answering its token: the trigger fails it.
    stateMachine.grantTaskResponse(role);
    // The watchdog lists the cluster's running create-deploy-stack tasks and stops those past the
    // scan timeout. ListTasks names no task, so it is allowed on this cluster by condition only.
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("ecs:ListTasks"))
            .resources(List.of("*"))
            .conditions(
                Map.of("ArnEquals", Map.of("ecs:cluster", props.tasks().cluster().getClusterArn())))
            .build());
    allow(role, List.of("ecs:DescribeTasks", "ecs:StopTask"), List.of(clusterTasks()));
  }

  /**
   * The webhook takes the merge lock but never releases it, starts flows of a deployment whose
   * stack is already stored, and starts create-deploy-stack and pr-plan-dispatch.
   */
  private void webhook() {
    Function function = props.functions().webhook();
    IRole role = function.getRole();
    vpcFunction(function);
    readSecret(role, metadbSecret);
    readSecret(role, props.secrets().webhookSecret());
    readSecret(role, props.secrets().githubToken());
    lock(role, "ssm:GetParameter", "ssm:PutParameter");
    stateMachine.grantStartExecution(role);
    runTask(role, props.tasks().createDeployStack());
    runTask(role, props.tasks().prPlanDispatch());
    // The statuses it held back while it answered GitHub go to the trigger, which posts them.
    allow(role, List.of("lambda:InvokeFunction"), List.of(props.triggerArn()));
  }

  /**
   * admin runs the operator's commands through the engine: it hands the merge lock on (so it takes
   * and releases it), relaunches create-deploy-stack (retry-scan), stops the flows of an aborted
   * deployment and starts those of the next one, and posts commit statuses; for {@code livegate
   * status --aws} and {@code ui --aws} it reads the execution logs and the copies of the plans'
   * text that terra-run keeps beside them (ListBucket makes one not kept read as missing). It
   * answers no task token, starts no other task, writes no log, and reads neither the plan files,
   * the vote-link key nor the webhook secret.
   */
  private void admin() {
    Function function = props.functions().admin();
    IRole role = function.getRole();
    vpcFunction(function);
    readSecret(role, metadbSecret);
    readSecret(role, props.secrets().githubToken());
    lock(role, "ssm:GetParameter", "ssm:PutParameter", "ssm:DeleteParameter");
    runTask(role, props.tasks().createDeployStack());
    stateMachine.grantStartExecution(role);
    stateMachine.grantExecution(role, "states:StopExecution");
    allow(
        role,
        List.of("s3:GetObject"),
        List.of(
            props.tasks().artifacts().arnForObjects(RuntimeContract.Artifacts.LOGS_PREFIX + "*")));
    allow(role, List.of("s3:ListBucket"), List.of(props.tasks().artifacts().getBucketArn()));
  }

  /** What every function needs: writing its log group, and the network interfaces of the VPC. */
  private static void vpcFunction(Function function) {
    allow(
        function.getRole(),
        List.of("logs:CreateLogStream", "logs:PutLogEvents"),
        List.of(function.getLogGroup().getLogGroupArn()));
    // A function in a VPC reaches it through network interfaces Lambda manages with these
    // actions, which EC2 grants on no narrower resource.
    allow(
        function.getRole(),
        List.of(
            "ec2:CreateNetworkInterface",
            "ec2:DescribeNetworkInterfaces",
            "ec2:DescribeSubnets",
            "ec2:DeleteNetworkInterface",
            "ec2:AssignPrivateIpAddresses",
            "ec2:UnassignPrivateIpAddresses"),
        List.of("*"));
  }

  /**
   * terra-run keeps each command's output in its execution's log in the artifact bucket (aws
   * S3ExecutionLogs), reading the log before it writes it back longer. ListBucket makes a log not
   * written yet read as missing, where S3 would otherwise answer AccessDenied; it shows key names
   * only.
   */
  private void executionLogs(IRole role) {
    allow(
        role,
        List.of("s3:GetObject", "s3:PutObject"),
        List.of(
            props.tasks().artifacts().arnForObjects(RuntimeContract.Artifacts.LOGS_PREFIX + "*")));
    allow(role, List.of("s3:ListBucket"), List.of(props.tasks().artifacts().getBucketArn()));
  }

  /** The plan files in the artifact bucket. */
  private String plans() {
    return props.tasks().artifacts().arnForObjects(Tasks.PLANS_PREFIX + "*");
  }

  private void lock(IRole role, String... actions) {
    allow(role, List.of(actions), List.of(props.functions().lockParameterArn()));
  }

  /** ecs:RunTask of {@code task}'s family in this cluster, and passing its two roles to ECS. */
  private void runTask(IRole role, FargateTaskDefinition task) {
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("ecs:RunTask"))
            .resources(
                List.of(
                    stack.formatArn(
                        ArnComponents.builder()
                            .service("ecs")
                            .resource("task-definition")
                            .resourceName(task.getFamily() + ":*")
                            .build())))
            .conditions(
                Map.of("ArnEquals", Map.of("ecs:cluster", props.tasks().cluster().getClusterArn())))
            .build());
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("iam:PassRole"))
            .resources(
                List.of(task.getTaskRole().getRoleArn(), task.obtainExecutionRole().getRoleArn()))
            .conditions(
                Map.of("StringEquals", Map.of("iam:PassedToService", "ecs-tasks.amazonaws.com")))
            .build());
  }

  /** Every task of livegate's cluster. */
  private String clusterTasks() {
    return stack.formatArn(
        ArnComponents.builder()
            .service("ecs")
            .resource("task")
            .resourceName(props.tasks().cluster().getClusterName() + "/*")
            .build());
  }

  private static void readSecret(IRole role, ISecret secret) {
    allow(role, List.of("secretsmanager:GetSecretValue"), List.of(secret.getSecretArn()));
  }

  private static void assume(IRole role, List<String> roleArns) {
    allow(role, List.of("sts:AssumeRole"), roleArns);
  }

  private static void allow(IRole role, List<String> actions, List<String> resources) {
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create().actions(actions).resources(resources).build());
  }
}
