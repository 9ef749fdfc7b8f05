package io.livegate.statemachine;

/**
 * The names that the AWS deployables and the CDK app share: each entry point's environment
 * variables, the Lambda handlers' classes, and the commands and options of the tasks that the
 * Lambdas start. The CDK app sets what the Lambdas and tasks read, so both take the names from here
 * and neither depends on the other.
 */
public final class RuntimeContract {
  private RuntimeContract() {}

  /** The engine, as the trigger, the webhook receiver and the tasks build it. */
  public static final class Engine {
    public static final String STATE_MACHINE = "LIVEGATE_STATE_MACHINE_ARN";
    public static final String LOCK_PARAMETER = "LIVEGATE_LOCK_PARAMETER";
    public static final String LOCK_SCOPE = "LIVEGATE_LOCK_SCOPE";
    public static final String APPROVAL_TIMEOUT = "LIVEGATE_APPROVAL_TIMEOUT";
    public static final String FAILURE_POLICY = "LIVEGATE_FAILURE_POLICY";
    public static final String RUNNER = "LIVEGATE_RUNNER";
    public static final String STATUS_URL = "LIVEGATE_STATUS_URL";

    private Engine() {}
  }

  /** The metadb's address and credentials. */
  public static final class Metadb {
    public static final String URL = "LIVEGATE_DB_URL";
    public static final String SECRET = "LIVEGATE_DB_SECRET_ARN";
    public static final String USER = "LIVEGATE_DB_USER";
    public static final String PASSWORD = "LIVEGATE_DB_PASSWORD";

    private Metadb() {}
  }

  /** GitHub's API and the token for it. */
  public static final class GitHub {
    public static final String API_URL = "LIVEGATE_GITHUB_API_URL";
    public static final String TOKEN_SECRET = "LIVEGATE_GITHUB_TOKEN_SECRET_ARN";
    public static final String TOKEN_PARAMETER = "LIVEGATE_GITHUB_TOKEN_PARAMETER";

    private GitHub() {}
  }

  /** Where livegate's ECS tasks run. */
  public static final class Ecs {
    public static final String CLUSTER = "LIVEGATE_CLUSTER_ARN";
    public static final String SUBNETS = "LIVEGATE_SUBNET_IDS";
    public static final String SECURITY_GROUPS = "LIVEGATE_SECURITY_GROUP_IDS";
    public static final String CONTAINER = "LIVEGATE_TASK_CONTAINER";

    private Ecs() {}
  }

  /** The bucket of saved plan files. */
  public static final class Artifacts {
    public static final String PLAN_BUCKET = "LIVEGATE_PLAN_BUCKET";

    /**
     * Where terra-run keeps each execution's log in that bucket ({@code logs/<execution>.log}), and
     * beside it the console's copy of its plan's text ({@code logs/<execution>.plan.txt}).
     */
    public static final String LOGS_PREFIX = "logs/";

    /**
     * Where terra-run's Apply keeps how each apply ended ({@code applies/<execution>.apply.output/
     * stdout|stderr}), for the retry of a task killed before it recorded the outcome.
     */
    public static final String APPLY_OUTPUTS_PREFIX = "applies/";

    private Artifacts() {}
  }

  /** The approval-request and approval-response Lambdas. */
  public static final class Approval {
    public static final String VOTE_BASE_URL = "LIVEGATE_VOTE_BASE_URL";
    public static final String VOTE_KEY_SECRET = "LIVEGATE_VOTE_KEY_SECRET_ARN";
    public static final String MAIL_FROM = "LIVEGATE_MAIL_FROM";
    public static final String SKIP_EMPTY = "LIVEGATE_SKIP_EMPTY";

    private Approval() {}
  }

  /** The webhook receiver. */
  public static final class Webhook {
    public static final String WEBHOOK_SECRET = "LIVEGATE_WEBHOOK_SECRET_ARN";
    public static final String REPOSITORY = "LIVEGATE_REPOSITORY";
    public static final String TRUNK = "LIVEGATE_TRUNK";
    public static final String ALLOW_FORK_PRS = "LIVEGATE_ALLOW_FORK_PRS";

    private Webhook() {}
  }

  /** The create-deploy-stack task, which the engine launches for a merge. */
  public static final class Scan {
    public static final String TASK_DEFINITION = "LIVEGATE_CREATE_DEPLOY_STACK_TASK_DEFINITION";

    private Scan() {}
  }

  /**
   * The trigger's scheduled check ({@code Scheduled Event} from EventBridge): scan tasks past their
   * timeout are stopped, and the lock's age and the stopped scans become metrics in this namespace.
   */
  public static final class Watchdog {
    /** ISO-8601: how long a create-deploy-stack task may run before the watchdog stops it. */
    public static final String SCAN_TIMEOUT = "LIVEGATE_SCAN_TIMEOUT";

    /** The CloudWatch namespace of the watchdog's metrics, {@code livegate/<stack>}. */
    public static final String METRIC_NAMESPACE = "LIVEGATE_METRIC_NAMESPACE";

    public static final java.time.Duration DEFAULT_SCAN_TIMEOUT = java.time.Duration.ofHours(1);

    /** Seconds the current holder has held the merge lock; 0 when it is free. */
    public static final String LOCK_HELD_METRIC = "LockHeldSeconds";

    /** create-deploy-stack tasks the watchdog stopped because they ran past the scan timeout. */
    public static final String SCANS_STOPPED_METRIC = "ScanTasksStoppedPastTimeout";

    /** The EventBridge detail type of the schedule's events. */
    public static final String SCHEDULED_EVENT = "Scheduled Event";

    private Watchdog() {}
  }

  /** What every ECS task reads. */
  public static final class Tasks {
    public static final String REPO_URL = "LIVEGATE_REPO_URL";
    public static final String WORKSPACE = "LIVEGATE_WORKSPACE";
    public static final String ACCOUNTS = "LIVEGATE_ACCOUNTS";
    public static final String SCAN = "LIVEGATE_SCAN";
    public static final String TRIGGER_FUNCTION = "LIVEGATE_TRIGGER_FUNCTION";

    /**
     * {@code true}: the drift task queues a drift reconcile of what drifted (docs/drift.md) and
     * tells the trigger; it then also reads the metadb.
     */
    public static final String DRIFT_RECONCILE = "LIVEGATE_DRIFT_RECONCILE";

    public static final String LOG_URL = "LIVEGATE_LOG_URL";

    /**
     * ISO-8601: how long each account-role session lasts (STS's DurationSeconds, from PT15M to the
     * role's maximum session duration, at most PT12H); sessions are renewed before they end.
     */
    public static final String ROLE_SESSION_DURATION = "LIVEGATE_ROLE_SESSION_DURATION";

    public static final java.time.Duration DEFAULT_ROLE_SESSION_DURATION =
        java.time.Duration.ofHours(1);

    /**
     * Optional: the Secrets Manager secret of a token that only reads the repositories of private
     * module sources, which git in terraform and terragrunt then signs in with (docs/security.md).
     */
    public static final String MODULE_SOURCES_TOKEN_SECRET =
        "LIVEGATE_MODULE_SOURCES_TOKEN_SECRET_ARN";

    /** The host that token is for (default {@code https://github.com}). */
    public static final String MODULE_SOURCES_HOST = "LIVEGATE_MODULE_SOURCES_HOST";

    public static final String PLAN_FORKS = "LIVEGATE_PLAN_FORKS";
    public static final String PR_COMMENT = "LIVEGATE_PR_COMMENT";

    private Tasks() {}
  }

  /** The Lambda handlers' classes, as the CDK app names them (checked in the lambdas module). */
  public static final class Handlers {
    public static final String WEBHOOK = "io.livegate.lambdas.webhook.WebhookHandler";
    public static final String TRIGGER = "io.livegate.lambdas.trigger.TriggerHandler";
    public static final String APPROVAL_REQUEST =
        "io.livegate.lambdas.approval.ApprovalRequestHandler";
    public static final String APPROVAL_RESPONSE =
        "io.livegate.lambdas.approval.ApprovalResponseHandler";
    public static final String MIGRATE = "io.livegate.lambdas.migrate.MigrateHandler";
    public static final String ADMIN = "io.livegate.lambdas.admin.AdminHandler";

    private Handlers() {}
  }

  /** The EventBridge events that the trigger subscribes to. */
  public static final class Events {
    public static final String STATUS_CHANGE = "Step Functions Execution Status Change";

    /** EventBridge's detail-type for an ECS task of livegate's cluster that changed status. */
    public static final String TASK_STATE_CHANGE = "ECS Task State Change";

    private Events() {}
  }

  /** The pr-plan task: its task definitions, its command and its options. */
  public static final class PullRequestPlans {
    public static final String TASK_DEFINITION = "LIVEGATE_PR_PLAN_TASK_DEFINITION";
    public static final String UNIT_TASK_DEFINITION = "LIVEGATE_PR_PLAN_UNIT_TASK_DEFINITION";
    public static final String PR_PLAN = "pr-plan";
    public static final String DISPATCH = "dispatch";
    public static final String UNIT = "unit";
    public static final String REPOSITORY_OPTION = "--repository";
    public static final String NUMBER_OPTION = "--number";
    public static final String BASE_REF_OPTION = "--base-ref";
    public static final String BASE_SHA_OPTION = "--base-sha";
    public static final String HEAD_SHA_OPTION = "--head-sha";
    public static final String FROM_FORK_OPTION = "--from-fork";
    public static final String UNIT_OPTION = "--unit";

    private PullRequestPlans() {}
  }

  /**
   * The ECS task definitions: each family is the stack's name, a dash and the task's name, so that
   * {@code livegate doctor --aws} finds a stack's tasks by its name.
   */
  public static final class TaskFamilies {
    public static final String CREATE_DEPLOY_STACK = "create-deploy-stack";
    public static final String PR_PLAN_DISPATCH = "pr-plan-dispatch";
    public static final String PR_PLAN_UNIT = "pr-plan-unit";
    public static final String TERRA_RUN_PLAN = "terra-run-plan";
    public static final String TERRA_RUN_APPLY = "terra-run-apply";
    public static final String DRIFT = "drift";

    /** The family of the task {@code task} of the stack {@code stack}. */
    public static String family(String stack, String task) {
      return stack + "-" + task;
    }

    private TaskFamilies() {}
  }

  /**
   * The terraform and terragrunt releases livegate is tested with (the image's defaults), and the
   * Docker labels on every task's container that say which releases the stack's image installs.
   */
  public static final class RunnerVersions {
    public static final String TERRAFORM = "1.11.4";
    public static final String TERRAGRUNT = "1.1.3";
    public static final String TERRAFORM_LABEL = "io.livegate.terraform-version";
    public static final String TERRAGRUNT_LABEL = "io.livegate.terragrunt-version";

    /**
     * The task environment variable holding the terragrunt release the image installed (the
     * Dockerfile sets it from its build argument), so that scans apply that release's rules.
     */
    public static final String TERRAGRUNT_ENV = "LIVEGATE_TERRAGRUNT_VERSION";

    private RunnerVersions() {}
  }
}
