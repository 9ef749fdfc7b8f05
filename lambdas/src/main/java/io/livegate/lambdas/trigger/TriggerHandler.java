package io.livegate.lambdas.trigger;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.aws.AwsEngine;
import io.livegate.aws.EcsScanLauncher;
import io.livegate.aws.Secrets;
import io.livegate.aws.SfnTaskTokens;
import io.livegate.aws.Watchdog;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.AdvanceDeployment;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.flow.FlowCallback;
import io.livegate.core.pr.FinalStatuses;
import io.livegate.core.pr.MergeGate;
import io.livegate.core.pr.PostedStatus;
import io.livegate.lambdas.Handlers;
import io.livegate.lambdas.SnapStartPriming;
import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.FlowOutput;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.statemachine.TriggerEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The trigger Lambda. It takes three events:
 *
 * <ul>
 *   <li>{@code {"deploymentCreated": 12}}, invoked by create-deploy-stack once the deployment's
 *       stack is stored: start the ready flows;
 *   <li>{@code {"scanFailed": 12, "reason": "..."}}, invoked by create-deploy-stack when it could
 *       not store the stack: the deployment fails and the lock passes on;
 *   <li>{@code {"postStatuses": [...]}}, from the webhook: the commit statuses it held back while
 *       it answered GitHub, to post now;
 *   <li>EventBridge's "Step Functions Execution Status Change" for the deploy flow: record the
 *       outcome ({@code SUCCEEDED} carries it in the output; {@code FAILED}, {@code TIMED_OUT} and
 *       {@code ABORTED} are failures), then start what became ready;
 *   <li>EventBridge's "ECS Task State Change" for a stopped task of livegate's cluster: a task that
 *       died without reporting is reported for it, so nothing waits on it. A stopped
 *       create-deploy-stack is {@code scanFailed} (which changes nothing when it stored the stack);
 *       a stopped terra-run plan fails its task token (refused, and so harmless, when it answered
 *       it). terra-run apply runs {@code .sync}, so Step Functions sees its stop itself; pr-plan
 *       tasks hold no lock;
 *   <li>EventBridge's "Scheduled Event" of the watchdog rule: the {@link Watchdog} stops scan tasks
 *       running past their timeout and reports how long the lock is held, as metrics the stack's
 *       alarms watch.
 * </ul>
 *
 * Any other event is answered as ignored. A malformed event is an error, so EventBridge retries it
 * and, in the end, it lands in the rule's dead-letter queue rather than being lost.
 */
public final class TriggerHandler implements RequestStreamHandler {
  /** The error a stopped Plan task's token is failed with; Plan retries it once, then fails. */
  static final String TASK_STOPPED = DeployFlow.TASK_STOPPED_ERROR;

  private static final String CREATE_DEPLOY_STACK = "create-deploy-stack";

  /**
   * What the trigger drives: the engine, the merge gate (a plan dispatch names a pull request's
   * units), and the final statuses that no task posts.
   */
  public record Parts(
      AdvanceDeployment advance,
      MergeGate gate,
      FinalStatuses statuses,
      FlowCallback tokens,
      CommitStatusPublisher github) {}

  private final Supplier<Parts> parts;
  private final Supplier<Watchdog> watchdog;

  /** The Lambda runtime's constructor: wires from the environment. */
  public TriggerHandler() {
    this(System.getenv(), AwsEngine.fromEnvironment(System.getenv()));
  }

  private TriggerHandler(Map<String, String> environment, AwsEngine engine) {
    this(parts(engine), watchdog(engine, environment));
    SnapStartPriming.register(() -> SnapStartPriming.prime(engine.aws(), engine.metadb()));
  }

  /**
   * @param watchdog the scheduled check, built the first time a schedule event asks for it
   */
  public TriggerHandler(Supplier<Parts> parts, Supplier<Watchdog> watchdog) {
    this.parts = parts;
    this.watchdog = watchdog;
  }

  /**
   * The watchdog as {@code engine}'s clients and the environment wire it, built when first used.
   */
  public static Supplier<Watchdog> watchdog(AwsEngine engine, Map<String, String> environment) {
    return Secrets.memoize(
        () -> Watchdog.fromEnvironment(engine.aws(), environment, Clock.systemUTC()));
  }

  /** The parts as {@code engine} wires them. */
  public static Supplier<Parts> parts(AwsEngine engine) {
    Parts wired =
        new Parts(
            engine.advance(),
            engine.gate(),
            engine.finalStatuses(),
            new SfnTaskTokens(engine.aws().build(SfnClient.builder())),
            engine.github().statuses(Handlers::log));
    return () -> wired;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    ObjectNode answer = Handlers.JSON.createObjectNode();
    answer.put("message", handle(Handlers.read(input, "the trigger event")));
    Handlers.write(output, answer);
    Handlers.log(context, answer.get("message").asText());
  }

  /** Handles one event and says what it did. */
  public String handle(JsonNode event) {
    if (event.has(TriggerEvent.DEPLOYMENT_CREATED)) {
      long id = deploymentId(event, TriggerEvent.DEPLOYMENT_CREATED);
      Parts wired = parts.get();
      String message = wired.advance().created(id).message();
      wired.statuses().settle(id);
      return message;
    }
    if (event.has(TriggerEvent.SCAN_FAILED)) {
      return parts
          .get()
          .advance()
          .scanFailed(
              deploymentId(event, TriggerEvent.SCAN_FAILED),
              event.path("reason").asText("no reason given"))
          .message();
    }
    if (event.has(TriggerEvent.POST_STATUSES)) {
      return postStatuses(parts.get().github(), event.get(TriggerEvent.POST_STATUSES));
    }
    if (event.has(TriggerEvent.PR_PLANNED)) {
      return prPlanned(parts.get().gate(), event.get(TriggerEvent.PR_PLANNED));
    }
    if (RuntimeContract.Watchdog.SCHEDULED_EVENT.equals(event.path("detail-type").asText())) {
      return watchdog.get().check().message();
    }
    if (RuntimeContract.Events.TASK_STATE_CHANGE.equals(event.path("detail-type").asText())) {
      return taskStateChanged(event.path("detail"));
    }
    if (!RuntimeContract.Events.STATUS_CHANGE.equals(event.path("detail-type").asText())) {
      return "ignored: not a deployment, a Step Functions status change or a schedule";
    }
    JsonNode detail = event.path("detail");
    String name = detail.path("name").asText("");
    String status = detail.path("status").asText("");
    if (name.isEmpty() || status.isEmpty()) {
      throw new LivegateException("the status change names no execution or status: " + detail);
    }
    ExecutionStatus outcome;
    switch (status) {
      case "SUCCEEDED" -> outcome = FlowOutput.fromJson(detail.path("output").asText()).status();
      case "FAILED", "TIMED_OUT", "ABORTED" -> outcome = ExecutionStatus.FAILED;
      default -> {
        return "ignored: " + name + " is " + status;
      }
    }
    Parts wired = parts.get();
    AdvanceDeployment.Advanced advanced = wired.advance().flowEnded(name, outcome);
    wired.statuses().settleExecution(name);
    return name
        + " "
        + status
        + ": "
        + advanced.message()
        + "; started "
        + advanced.started().size()
        + ", stopped "
        + advanced.stopped().size();
  }

  private String taskStateChanged(JsonNode detail) {
    String status = detail.path("lastStatus").asText("");
    if (!status.equals("STOPPED")) {
      return "ignored: task " + detail.path("taskArn").asText("?") + " is " + status;
    }
    StoppedTask task = StoppedTask.parse(detail);
    List<String> command = task.command();
    if (!command.isEmpty() && command.get(0).equals(CREATE_DEPLOY_STACK)) {
      long id =
          EcsScanLauncher.deploymentOf(task.startedBy())
              .orElseThrow(
                  () ->
                      new LivegateException(
                          "create-deploy-stack " + task.taskArn() + " names no deployment"));
      return parts
          .get()
          .advance()
          .scanFailed(id, "create-deploy-stack " + task.why() + ", before it reported")
          .message();
    }
    if (command.equals(List.of(DeployFlow.TERRA_RUN, DeployFlow.PLAN_MODE))) {
      String token = task.environment().get(DeployFlow.TASK_TOKEN_ENV);
      String execution = task.environment().getOrDefault(DeployFlow.EXECUTION_ID_ENV, "?");
      if (token == null) {
        throw new LivegateException("terra-run plan " + task.taskArn() + " carries no task token");
      }
      boolean failed =
          parts.get().tokens().fail(token, TASK_STOPPED, "terra-run plan " + task.why());
      return "terra-run plan of execution "
          + execution
          + (failed
              ? " " + task.why() + ", before it reported: Plan runs once more, then its flow fails"
              : " stopped after it reported; nothing to do");
    }
    return "ignored: " + task.why() + " (" + String.join(" ", command) + ")";
  }

  /**
   * Posts the statuses the webhook held back while it answered GitHub (their ledger entries are
   * written already). A failure is thrown, so Lambda retries the event and, in the end, it lands in
   * the dead-letter queue; a status posted twice is the same status.
   */
  private static String postStatuses(CommitStatusPublisher github, JsonNode list) {
    List<PostedStatus> statuses = TriggerEvent.statuses(list);
    for (PostedStatus status : statuses) {
      github.publish(
          status.repository(),
          status.sha(),
          status.context(),
          status.state(),
          status.description(),
          status.targetUrl());
    }
    return "posted " + statuses.size() + " commit status(es) the webhook held back";
  }

  private static String prPlanned(MergeGate gate, JsonNode planned) {
    TriggerEvent.PlannedHead plannedHead = TriggerEvent.plannedHead(planned);
    gate.planned(plannedHead.head(), plannedHead.result());
    return "pull request #"
        + plannedHead.head().number()
        + " at "
        + plannedHead.head().headSha()
        + ": "
        + plannedHead.result().outcome();
  }

  private static long deploymentId(JsonNode event, String field) {
    JsonNode id = event.get(field);
    if (!id.isIntegralNumber() || !id.canConvertToLong()) {
      throw new LivegateException(field + " must be a deployment id, not " + id);
    }
    return id.asLong();
  }
}
