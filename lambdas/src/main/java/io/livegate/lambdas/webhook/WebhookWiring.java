package io.livegate.lambdas.webhook;

import io.livegate.core.pr.PullRequestPlanner;
import io.livegate.core.webhook.WebhookReceiver;
import io.livegate.core.webhook.WebhookSettings;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.lambdas.aws.EcsPullRequestPlanner;
import io.livegate.lambdas.aws.Env;
import io.livegate.lambdas.aws.Secrets;
import io.livegate.lambdas.engine.EngineWiring;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The webhook receiver's composition root: the only place that reads its environment.
 *
 * <ul>
 *   <li>{@value #WEBHOOK_SECRET}: the Secrets Manager secret holding the webhook secret;
 *   <li>{@value #REPOSITORY}: the repository served, as owner/name;
 *   <li>{@value #TRUNK}: the branch that deploys (default {@code main});
 *   <li>{@value #ALLOW_FORK_PRS}: whether pull requests from forks get plans (default false);
 *   <li>pr-plan's task definition, see {@link EcsPullRequestPlanner};
 *   <li>the engine's, see {@link EngineWiring}.
 * </ul>
 *
 * The secret is fetched on the first delivery, not while the Lambda initialises.
 */
public final class WebhookWiring {
  public static final String WEBHOOK_SECRET = "LIVEGATE_WEBHOOK_SECRET_ARN";
  public static final String REPOSITORY = "LIVEGATE_REPOSITORY";
  public static final String TRUNK = "LIVEGATE_TRUNK";
  public static final String ALLOW_FORK_PRS = "LIVEGATE_ALLOW_FORK_PRS";

  private final EngineWiring engine;
  private final WebhookReceiver receiver;

  private WebhookWiring(EngineWiring engine, WebhookReceiver receiver) {
    this.engine = engine;
    this.receiver = receiver;
  }

  public static WebhookWiring fromEnvironment(Map<String, String> environment) {
    EngineWiring engine = EngineWiring.fromEnvironment(environment);
    Secrets secrets = engine.secrets();
    String secretArn = Env.required(environment, WEBHOOK_SECRET);
    Supplier<byte[]> secret =
        Secrets.memoize(() -> WebhookSignature.secret(secrets.text(secretArn)));
    WebhookSettings settings =
        new WebhookSettings(
            secret,
            Env.required(environment, REPOSITORY),
            Env.optional(environment, TRUNK, "main"),
            Env.flag(environment, ALLOW_FORK_PRS));
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

  /** SnapStart priming: the engine's ({@link EngineWiring#prime}). */
  public void prime() {
    engine.prime();
  }
}
