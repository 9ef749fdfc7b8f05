package io.livegate.cdk;

import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.amazon.awscdk.services.secretsmanager.SecretStringGenerator;
import software.constructs.Construct;

/**
 * The secrets the entry points share, generated on deploy and named under the stack's name (e.g.
 * {@code Livegate/webhook-secret}): the GitHub token, a placeholder until the operator puts a real
 * token in (module README), the webhook secret and the key that signs vote links. It has no props:
 * nothing about them is configurable. Like every construct of the stack, it puts its resources in
 * the stack ({@link LivegateStack} says why).
 */
public final class Secrets extends Construct {
  static final String GITHUB_TOKEN = "github-token";
  static final String WEBHOOK_SECRET = "webhook-secret";
  static final String VOTE_KEY = "vote-link-key";

  private final Secret githubToken;
  private final Secret webhookSecret;
  private final Secret voteKey;

  public Secrets(Construct scope, String id) {
    super(scope, id);
    Stack stack = Stack.of(this);
    this.githubToken =
        secret(stack, "GithubToken", GITHUB_TOKEN, "GitHub token: replace after deploy (README)");
    this.webhookSecret = secret(stack, "WebhookSecret", WEBHOOK_SECRET, "GitHub webhook secret");
    this.voteKey = secret(stack, "VoteKey", VOTE_KEY, "Key that signs vote links");
  }

  public Secret githubToken() {
    return githubToken;
  }

  public Secret webhookSecret() {
    return webhookSecret;
  }

  public Secret voteKey() {
    return voteKey;
  }

  /** The full name of the secret {@code name}, as the operator looks it up. */
  public String nameOf(String name) {
    return Stack.of(this).getStackName() + "/" + name;
  }

  private Secret secret(Stack stack, String id, String name, String description) {
    return Secret.Builder.create(stack, id)
        .secretName(nameOf(name))
        .description("livegate: " + description)
        .generateSecretString(
            SecretStringGenerator.builder().passwordLength(64).excludePunctuation(true).build())
        .build();
  }
}
