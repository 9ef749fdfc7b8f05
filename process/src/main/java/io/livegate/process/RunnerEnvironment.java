package io.livegate.process;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The environment terraform and terragrunt run with. They run the code being deployed (providers,
 * {@code external} data sources, hooks, {@code run_cmd}) before anyone voted on it, so they get an
 * allow-list, never livegate's own environment: no {@code LIVEGATE_*} setting, task token, webhook
 * secret, GitHub token or metadb credential can reach them, whatever name it is given.
 *
 * <p>Allowed: what a process needs to run ({@code PATH}, {@code HOME}, the user, locale, time zone
 * and temp directory), proxies and CA bundles, terraform's and terragrunt's own settings ({@code
 * TF_*}, {@code TG_*}, {@code TERRAGRUNT_*}), and the AWS credential chain's variables listed in
 * {@link #AWS}: the credentials of the role the plan or apply runs with. Never livegate's own ECS
 * container credentials ({@code AWS_CONTAINER_CREDENTIALS_RELATIVE_URI}, {@code …_FULL_URI}, {@code
 * AWS_CONTAINER_AUTHORIZATION_TOKEN}): they are the task role's, which may read the metadb secret,
 * write plan artifacts and answer task tokens. The ECS tasks hand terraform the sessions of the
 * account's plan or apply role instead ({@link #forCommand}), through an endpoint of their own
 * whose {@code …_FULL_URI} and token only a command's own environment may carry.
 */
public final class RunnerEnvironment {
  private static final Set<String> NAMES =
      Set.of(
          "PATH",
          "HOME",
          "USER",
          "LOGNAME",
          "LANG",
          "LANGUAGE",
          "TZ",
          "TMPDIR",
          "SSL_CERT_FILE",
          "SSL_CERT_DIR",
          "HTTP_PROXY",
          "HTTPS_PROXY",
          "NO_PROXY",
          "http_proxy",
          "https_proxy",
          "no_proxy");

  /** The AWS SDKs' credential and region variables. */
  static final Set<String> AWS =
      Set.of(
          "AWS_ACCESS_KEY_ID",
          "AWS_SECRET_ACCESS_KEY",
          "AWS_SESSION_TOKEN",
          "AWS_REGION",
          "AWS_DEFAULT_REGION",
          "AWS_PROFILE",
          "AWS_CONFIG_FILE",
          "AWS_SHARED_CREDENTIALS_FILE",
          "AWS_CA_BUNDLE",
          "AWS_ENDPOINT_URL",
          "AWS_STS_REGIONAL_ENDPOINTS");

  /** Where the credentials come from: replaced as a whole when a command brings its own. */
  private static final Set<String> CREDENTIALS =
      Set.of(
          "AWS_ACCESS_KEY_ID",
          "AWS_SECRET_ACCESS_KEY",
          "AWS_SESSION_TOKEN",
          "AWS_PROFILE",
          "AWS_CONFIG_FILE",
          "AWS_SHARED_CREDENTIALS_FILE");

  /**
   * A credentials endpoint that serves the command's role (the ECS tasks' role-session endpoint):
   * allowed from the command's own variables only, never from livegate's environment, where they
   * would be the task role's.
   */
  private static final Set<String> COMMAND_ENDPOINT =
      Set.of("AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN");

  private static final String[] PREFIXES = {"TF_", "TG_", "TERRAGRUNT_", "LC_"};

  private RunnerEnvironment() {}

  /** The variables of {@code environment} a terraform or terragrunt process may see. */
  public static Map<String, String> allowed(Map<String, String> environment) {
    Map<String, String> allowed = new TreeMap<>();
    environment.forEach(
        (name, value) -> {
          if (isAllowed(name)) {
            allowed.put(name, value);
          }
        });
    return allowed;
  }

  /**
   * The environment of one command: the allowed part of livegate's own {@code environment} under
   * the allowed part of the command's. When the command brings credentials ({@code
   * AWS_ACCESS_KEY_ID}, or a credentials endpoint: a role's sessions), livegate's own credential
   * variables are left out, so that a profile or key of livegate's cannot take precedence over, or
   * stand beside, the role's.
   */
  public static Map<String, String> forCommand(
      Map<String, String> environment, Map<String, String> command) {
    Map<String, String> merged = allowed(environment);
    if (command.containsKey("AWS_ACCESS_KEY_ID")
        || command.containsKey("AWS_CONTAINER_CREDENTIALS_FULL_URI")) {
      merged.keySet().removeAll(CREDENTIALS);
    }
    merged.putAll(allowed(command));
    // A command's environment may start as a copy of livegate's own: an endpoint variable equal
    // to livegate's is livegate's (the task role's), not one the command was given.
    command.forEach(
        (name, value) -> {
          if (COMMAND_ENDPOINT.contains(name) && !value.equals(environment.get(name))) {
            merged.put(name, value);
          }
        });
    return merged;
  }

  static boolean isAllowed(String name) {
    if (NAMES.contains(name) || AWS.contains(name)) {
      return true;
    }
    for (String prefix : PREFIXES) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
