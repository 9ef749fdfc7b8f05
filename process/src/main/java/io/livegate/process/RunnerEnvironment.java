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
 * {@link #AWS}: the credentials of the role the plan or apply runs with.
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

  /** The AWS SDKs' credential and region variables; on ECS, the container credentials too. */
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
          "AWS_STS_REGIONAL_ENDPOINTS",
          "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
          "AWS_CONTAINER_CREDENTIALS_FULL_URI",
          "AWS_CONTAINER_AUTHORIZATION_TOKEN");

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
