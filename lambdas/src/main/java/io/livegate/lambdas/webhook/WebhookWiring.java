package io.livegate.lambdas.webhook;

import io.livegate.aws.AwsEngine;
import io.livegate.aws.EcsPullRequestPlanner;
import io.livegate.aws.Env;
import io.livegate.aws.LambdaTrigger;
import io.livegate.aws.Secrets;
import io.livegate.aws.StatusOutbox;
import io.livegate.core.pr.PullRequestPlanner;
import io.livegate.core.webhook.WebhookReceiver;
import io.livegate.core.webhook.WebhookSettings;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.lambdas.SnapStartPriming;
import io.livegate.statemachine.RuntimeContract;
import java.time.Clock;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import software.amazon.awssdk.services.lambda.LambdaClient;

/**
 * The webhook receiver's composition root: the only place that reads its environment.
 *
 * <ul>
 *   <li>{@value RuntimeContract.Webhook#WEBHOOK_SECRET}: the Secrets Manager secret holding the
 *       webhook secret;
 *   <li>{@value RuntimeContract.Webhook#REPOSITORY}: the repository served, as owner/name;
 *   <li>{@value RuntimeContract.Webhook#TRUNK}: the branch that deploys (default {@code main});
 *   <li>{@value RuntimeContract.Webhook#ALLOW_FORK_PRS}: whether pull requests from forks get plans
 *       (default false);
 *   <li>pr-plan's task definition, see {@link EcsPullRequestPlanner};
 *   <li>{@value RuntimeContract.Tasks#TRIGGER_FUNCTION}: the trigger, which posts the commit
 *       statuses the webhook holds back while it answers ({@link StatusOutbox});
 *   <li>the engine's, see {@link AwsEngine}.
 * </ul>
 *
 * The secret is fetched on the first delivery, not while the Lambda initialises.
 */
public final class WebhookWiring {
  private final AwsEngine engine;
  private final WebhookReceiver receiver;
  private final StatusOutbox outbox;
  private final Consumer<String> trigger;

  private WebhookWiring(
      AwsEngine engine, WebhookReceiver receiver, StatusOutbox outbox, Consumer<String> trigger) {
    this.engine = engine;
    this.receiver = receiver;
    this.outbox = outbox;
    this.trigger = trigger;
  }

  public static WebhookWiring fromEnvironment(Map<String, String> environment) {
    // GitHub gives a delivery 10 s: the webhook records what is durable and answers; the commit
    // statuses (one per open pull request when a merge takes the lock) go to the trigger after.
    StatusOutbox outbox = new StatusOutbox();
    AwsEngine engine = AwsEngine.holdingStatuses(environment, outbox);
    Secrets secrets = engine.secrets();
    String secretArn = Env.required(environment, RuntimeContract.Webhook.WEBHOOK_SECRET);
    Supplier<byte[]> secret =
        Secrets.memoize(() -> WebhookSignature.secret(secrets.text(secretArn)));
    WebhookSettings settings =
        new WebhookSettings(
            secret,
            Env.required(environment, RuntimeContract.Webhook.REPOSITORY),
            Env.optional(environment, RuntimeContract.Webhook.TRUNK, "main"),
            Env.flag(environment, RuntimeContract.Webhook.ALLOW_FORK_PRS));
    PullRequestPlanner planner =
        new EcsPullRequestPlanner(engine.ecs(), EcsPullRequestPlanner.Settings.from(environment));
    Consumer<String> trigger =
        new LambdaTrigger(
            engine.aws().build(LambdaClient.builder()),
            Env.required(environment, RuntimeContract.Tasks.TRIGGER_FUNCTION));
    return new WebhookWiring(
        engine,
        new WebhookReceiver(
            settings,
            engine.metadb().deliveries(),
            planner,
            engine.gate(),
            engine.advance(),
            engine.statuses(),
            Clock.systemUTC()),
        outbox,
        trigger);
  }

  /**
   * Hands the statuses a delivery held back to the trigger, which posts them.
   *
   * @return how many
   */
  public int handOnStatuses() {
    return outbox.handTo(trigger);
  }

  public WebhookReceiver receiver() {
    return receiver;
  }

  /** SnapStart priming: the engine's clients and metadb ({@link SnapStartPriming#prime}). */
  public void prime() {
    SnapStartPriming.prime(engine.aws(), engine.metadb());
  }
}
