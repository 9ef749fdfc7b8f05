package io.livegate.lambdas.webhook;

import io.livegate.aws.AwsEngine;
import io.livegate.aws.EcsPullRequestPlanner;
import io.livegate.aws.Env;
import io.livegate.aws.Secrets;
import io.livegate.core.pr.PullRequestPlanner;
import io.livegate.core.webhook.WebhookReceiver;
import io.livegate.core.webhook.WebhookSettings;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.lambdas.SnapStartPriming;
import io.livegate.statemachine.RuntimeContract;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;

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
 *   <li>the engine's, see {@link AwsEngine}.
 * </ul>
 *
 * The secret is fetched on the first delivery, not while the Lambda initialises.
 */
public final class WebhookWiring {
  private final AwsEngine engine;
  private final WebhookReceiver receiver;

  private WebhookWiring(AwsEngine engine, WebhookReceiver receiver) {
    this.engine = engine;
    this.receiver = receiver;
  }

  public static WebhookWiring fromEnvironment(Map<String, String> environment) {
    AwsEngine engine = AwsEngine.fromEnvironment(environment);
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
    return new WebhookWiring(
        engine,
        new WebhookReceiver(
            settings,
            engine.metadb().deliveries(),
            planner,
            engine.gate(),
            engine.advance(),
            engine.statuses(),
            Clock.systemUTC()));
  }

  public WebhookReceiver receiver() {
    return receiver;
  }

  /** SnapStart priming: the engine's clients and metadb ({@link SnapStartPriming#prime}). */
  public void prime() {
    SnapStartPriming.prime(engine.aws(), engine.metadb());
  }
}
