package io.livegate.cdk;

import io.livegate.statemachine.RuntimeContract;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.CfnFunction;
import software.amazon.awscdk.services.lambda.EventInvokeConfigOptions;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.FunctionUrl;
import software.amazon.awscdk.services.lambda.FunctionUrlAuthType;
import software.amazon.awscdk.services.lambda.FunctionUrlOptions;
import software.amazon.awscdk.services.lambda.destinations.SqsDestination;
import software.amazon.awscdk.services.lambda.eventsources.SnsEventSource;
import software.amazon.awscdk.services.ses.EmailIdentity;
import software.constructs.Construct;

/**
 * The Lambda entry points: {@code webhook} and {@code approval-response} behind Function URLs,
 * {@code trigger}, {@code approval-request} subscribed to the approval topic, and {@code admin}
 * (invoked only by IAM identities allowed to: {@code livegate admin --aws}), each with the
 * environment its wiring reads, and the SES identity vote mail comes from. Every invoker calls a
 * function's {@value #LIVE_ALIAS} alias, which points at its SnapStart-ed published version and
 * moves only after the metadb's schema is migrated. ({@link Metadb} builds the fifth Lambda, the
 * migration.) Like every construct of the stack, it puts its resources in the stack ({@link
 * LivegateStack} says why).
 */
public final class Functions extends Construct {
  /** The alias every invoker uses: it points at the published, SnapStart-ed version. */
  public static final String LIVE_ALIAS = "live";

  /**
   * @param metadb what every entry point connects to, and the schema its alias waits for
   * @param secrets the GitHub token, the webhook secret and the vote-link key
   * @param tasks the tasks the webhook and the trigger start, and the plan files approval-response
   *     shows
   * @param flow the deploy flow the webhook and the trigger start, and its approval topic
   * @param functionFactory builds each function
   * @param config the installation: repository, trunk, mail, the merge lock and the engine's
   *     settings
   * @param mailFrom the SES identity vote and drift mail is sent from ({@link Mail})
   */
  public record Props(
      Metadb metadb,
      Secrets secrets,
      Tasks tasks,
      Flow flow,
      FunctionFactory functionFactory,
      LivegateConfig config,
      EmailIdentity mailFrom) {}

  private final Props props;
  private final Stack stack;
  private final EmailIdentity mailFrom;
  private final String lockParameterArn;
  private final Map<String, Function> all = new LinkedHashMap<>();
  private final Function approvalResponse;
  private final Function approvalRequest;
  private final Function trigger;
  private final Alias triggerLive;
  private final Function webhook;
  private final Function admin;
  private final String voteBaseUrl;
  private final FunctionUrl webhookUrl;

  public Functions(Construct scope, String id, Props props) {
    super(scope, id);
    this.props = props;
    this.stack = Stack.of(this);
    LivegateConfig config = props.config();
    this.mailFrom = props.mailFrom();
    this.lockParameterArn =
        stack.formatArn(
            ArnComponents.builder()
                .service("ssm")
                .resource("parameter")
                .resourceName(config.lockParameterFor(stack.getStackName()).substring(1))
                .build());

    // approval-response first: its Function URL is the vote links' base.
    Map<String, String> responseEnvironment = props.metadb().environment();
    responseEnvironment.put(
        RuntimeContract.Approval.VOTE_KEY_SECRET, props.secrets().voteKey().getSecretArn());
    responseEnvironment.put(
        RuntimeContract.Artifacts.PLAN_BUCKET, props.tasks().artifacts().getBucketName());
    responseEnvironment.put(
        RuntimeContract.Engine.APPROVAL_TIMEOUT, config.approvalTimeout().toString());
    this.approvalResponse =
        function(
            "ApprovalResponse",
            "approval-response",
            RuntimeContract.Handlers.APPROVAL_RESPONSE,
            Duration.seconds(15),
            responseEnvironment,
            null);
    reserveConcurrency(approvalResponse, config.functionUrlConcurrency());
    FunctionUrl voteUrl =
        live(approvalResponse)
            .addFunctionUrl(
                FunctionUrlOptions.builder().authType(FunctionUrlAuthType.NONE).build());
    // The URL ends in "/"; the vote links want the base without it: https://<host>.
    this.voteBaseUrl = "https://" + Fn.select(2, Fn.split("/", voteUrl.getUrl()));

    Map<String, String> requestEnvironment = props.metadb().environment();
    requestEnvironment.put(
        RuntimeContract.Approval.VOTE_KEY_SECRET, props.secrets().voteKey().getSecretArn());
    requestEnvironment.put(RuntimeContract.Approval.VOTE_BASE_URL, voteBaseUrl);
    requestEnvironment.put(RuntimeContract.Approval.MAIL_FROM, config.mailFrom());
    requestEnvironment.put(
        RuntimeContract.Approval.SKIP_EMPTY, Boolean.toString(config.skipEmpty()));
    requestEnvironment.put(
        RuntimeContract.Engine.APPROVAL_TIMEOUT, config.approvalTimeout().toString());
    this.approvalRequest =
        function(
            "ApprovalRequest",
            "approval-request",
            RuntimeContract.Handlers.APPROVAL_REQUEST,
            Duration.seconds(60),
            requestEnvironment,
            null);
    Alias approvalRequestLive = live(approvalRequest);
    // Both ways a request can be lost end in the approval dead-letter queue: SNS's delivery to
    // the function, and the function's own failures after Lambda's two retries of SNS's
    // asynchronous invocation.
    approvalRequestLive.addEventSource(
        SnsEventSource.Builder.create(props.flow().approvalTopic())
            .deadLetterQueue(props.flow().approvalDeadLetters())
            .build());
    approvalRequestLive.configureAsyncInvoke(
        EventInvokeConfigOptions.builder()
            .retryAttempts(2)
            .onFailure(new SqsDestination(props.flow().approvalDeadLetters()))
            .build());
    // SNS's lambda protocol takes any function ARN, an alias's included; the alias is what runs
    // the SnapStart-ed version.
    Validations.of(approvalRequestLive)
        .acknowledge(
            Acknowledgment.builder()
                .id("CloudFormation-Validate::W3694")
                .reason("SNS delivers to the function's live alias")
                .build());

    // The trigger's watchdog reads how long a scan may run and where its metrics go.
    Map<String, String> triggerEnvironment = engineEnvironment();
    triggerEnvironment.put(RuntimeContract.Watchdog.SCAN_TIMEOUT, config.scanTimeout().toString());
    triggerEnvironment.put(RuntimeContract.Watchdog.METRIC_NAMESPACE, metricNamespace(stack));
    this.trigger =
        function(
            "Trigger",
            "trigger",
            RuntimeContract.Handlers.TRIGGER,
            Duration.seconds(60),
            triggerEnvironment,
            triggerName(stack));
    this.triggerLive = live(trigger);

    // The webhook drives the engine too: a merge queues its deployment and, when the lock is free,
    // takes the lock and starts its create-deploy-stack, or the flows of a deployment whose stack
    // is already stored. It takes the lock but never releases it (the trigger does).
    Map<String, String> webhookEnvironment = engineEnvironment();
    webhookEnvironment.put(
        RuntimeContract.Webhook.WEBHOOK_SECRET, props.secrets().webhookSecret().getSecretArn());
    // It hands the commit statuses it holds back while answering GitHub to the trigger.
    webhookEnvironment.put(RuntimeContract.Tasks.TRIGGER_FUNCTION, triggerLiveArn(stack));
    webhookEnvironment.put(RuntimeContract.Webhook.TRUNK, config.trunk());
    webhookEnvironment.put(
        RuntimeContract.Webhook.ALLOW_FORK_PRS, Boolean.toString(config.allowForkPrs()));
    webhookEnvironment.put(
        RuntimeContract.PullRequestPlans.TASK_DEFINITION,
        props.tasks().prPlanDispatch().getTaskDefinitionArn());
    this.webhook =
        function(
            "Webhook",
            "webhook",
            RuntimeContract.Handlers.WEBHOOK,
            Duration.seconds(10),
            webhookEnvironment,
            null);
    reserveConcurrency(webhook, config.functionUrlConcurrency());
    this.webhookUrl =
        live(webhook)
            .addFunctionUrl(
                FunctionUrlOptions.builder().authType(FunctionUrlAuthType.NONE).build());

    // The operator's commands (livegate admin --aws) drive the same engine. No URL, no alias, no
    // resource policy: only an IAM identity of the account allowed lambda:InvokeFunction on it
    // reaches it, and the caller invokes it rarely enough that SnapStart would buy nothing.
    // It also answers livegate status --aws, with the execution logs it reads from the bucket.
    Map<String, String> adminEnvironment = engineEnvironment();
    adminEnvironment.put(
        RuntimeContract.Artifacts.PLAN_BUCKET, props.tasks().artifacts().getBucketName());
    this.admin =
        props
            .functionFactory()
            .create(
                new FunctionFactory.Spec(
                    "Admin",
                    "admin",
                    RuntimeContract.Handlers.ADMIN,
                    1024,
                    Duration.seconds(60),
                    adminEnvironment,
                    false,
                    null));
    all.put("admin", admin);
    // Its code runs only against the schema it expects.
    admin.getNode().addDependency(props.metadb().schema());
  }

  /**
   * The trigger's function name, {@code <stack>-trigger}: fixed, so that the tasks, built before
   * the trigger, can invoke it.
   */
  static String triggerName(Stack stack) {
    return stack.getStackName() + "-trigger";
  }

  /** The CloudWatch namespace of the trigger watchdog's metrics: {@code livegate/<stack>}. */
  static String metricNamespace(Stack stack) {
    return "livegate/" + stack.getStackName();
  }

  /** The ARN of the trigger's live alias, known before the trigger is built. */
  static String triggerLiveArn(Stack stack) {
    return stack.formatArn(
        ArnComponents.builder()
            .service("lambda")
            .resource("function")
            .resourceName(triggerName(stack) + ":" + LIVE_ALIAS)
            .arnFormat(ArnFormat.COLON_RESOURCE_NAME)
            .build());
  }

  /** The five entry points, by name. */
  public Map<String, Function> all() {
    return Map.copyOf(all);
  }

  public Function webhook() {
    return webhook;
  }

  public Function trigger() {
    return trigger;
  }

  /** The admin Lambda, which {@code livegate admin --aws} invokes. */
  public Function admin() {
    return admin;
  }

  /** The trigger's live alias, which the deploy flow's status changes go to. */
  public Alias triggerLive() {
    return triggerLive;
  }

  public Function approvalRequest() {
    return approvalRequest;
  }

  public Function approvalResponse() {
    return approvalResponse;
  }

  /** The SES identity approval-request sends from. */
  public EmailIdentity mailFrom() {
    return mailFrom;
  }

  /** The merge lock's SSM parameter, which the webhook and the trigger take. */
  public String lockParameterArn() {
    return lockParameterArn;
  }

  /** The webhook's Function URL, GitHub's payload URL. */
  public FunctionUrl webhookUrl() {
    return webhookUrl;
  }

  /** approval-response's URL without the trailing slash: the base of every vote link. */
  public String voteBaseUrl() {
    return voteBaseUrl;
  }

  private Function function(
      String id,
      String name,
      String handler,
      Duration timeout,
      Map<String, String> environment,
      String functionName) {
    Function function =
        props
            .functionFactory()
            .create(
                new FunctionFactory.Spec(
                    id, name, handler, 1024, timeout, environment, true, functionName));
    all.put(name, function);
    return function;
  }

  /**
   * Reserves {@code concurrency} for a function behind a public URL: anyone can send it requests,
   * so the reservation caps what a flood can run (and cost), and keeps it runnable when the rest of
   * the account uses up the regional concurrency. 0 reserves nothing.
   */
  private static void reserveConcurrency(Function function, int concurrency) {
    if (concurrency > 0) {
      ((CfnFunction) function.getNode().getDefaultChild())
          .setReservedConcurrentExecutions(concurrency);
    }
  }

  /** The function's live alias on its current version. */
  private Alias live(Function function) {
    Alias alias =
        Alias.Builder.create(function, "LiveAlias")
            .aliasName(LIVE_ALIAS)
            .version(function.getCurrentVersion())
            .build();
    // New code goes live only after the schema it expects is migrated.
    alias.getNode().addDependency(props.metadb().schema());
    return alias;
  }

  /**
   * What AwsEngine reads, which the webhook, the trigger and admin build: the metadb, the deploy
   * flow, the merge lock, create-deploy-stack on ECS, the GitHub token and the repository.
   */
  private Map<String, String> engineEnvironment() {
    LivegateConfig config = props.config();
    Map<String, String> environment = props.metadb().environment();
    environment.put(
        RuntimeContract.Engine.STATE_MACHINE, props.flow().stateMachine().getStateMachineArn());
    environment.put(
        RuntimeContract.Engine.LOCK_PARAMETER, config.lockParameterFor(stack.getStackName()));
    environment.put(RuntimeContract.Engine.LOCK_SCOPE, config.lockScope());
    environment.put(RuntimeContract.Engine.APPROVAL_TIMEOUT, config.approvalTimeout().toString());
    environment.put(RuntimeContract.Engine.FAILURE_POLICY, config.failurePolicy());
    environment.put(RuntimeContract.Engine.RUNNER, config.runner());
    environment.putAll(props.tasks().launchEnvironment());
    environment.put(
        RuntimeContract.Scan.TASK_DEFINITION,
        props.tasks().createDeployStack().getTaskDefinitionArn());
    environment.put(
        RuntimeContract.GitHub.TOKEN_SECRET, props.secrets().githubToken().getSecretArn());
    // The repository the webhook serves, and the one a GitHub App's tokens are limited to.
    environment.put(RuntimeContract.Webhook.REPOSITORY, config.repository());
    return environment;
  }
}
