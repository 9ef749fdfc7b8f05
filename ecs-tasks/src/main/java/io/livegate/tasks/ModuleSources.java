package io.livegate.tasks;

import io.livegate.aws.Env;
import io.livegate.aws.Secrets;
import io.livegate.core.LivegateException;
import io.livegate.process.GitCredentialStore;
import io.livegate.statemachine.RuntimeContract;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * The token for private module sources, when a task's environment names its secret ({@value
 * RuntimeContract.Tasks#MODULE_SOURCES_TOKEN_SECRET}): read with the task role and handed to git in
 * the home of the user terraform runs as ({@link GitCredentialStore}), for {@value
 * RuntimeContract.Tasks#MODULE_SOURCES_HOST} (default {@value #DEFAULT_HOST}). The code being
 * deployed can read it there, so livegate's own GitHub token is refused (docs/security.md).
 */
public final class ModuleSources {
  public static final String DEFAULT_HOST = "https://github.com";

  private ModuleSources() {}

  /** Writes the git credentials into {@code home}; without the secret's variable, nothing. */
  public static void install(Map<String, String> environment, Secrets secrets, Path home) {
    String secret =
        Env.optional(environment, RuntimeContract.Tasks.MODULE_SOURCES_TOKEN_SECRET, "");
    if (secret.isEmpty()) {
      return;
    }
    if (secret.equals(environment.get(RuntimeContract.GitHub.TOKEN_SECRET))) {
      throw new LivegateException(
          RuntimeContract.Tasks.MODULE_SOURCES_TOKEN_SECRET
              + " names livegate's own GitHub token, which the code being deployed could then read;"
              + " give a token that only reads the module repositories");
    }
    GitCredentialStore.write(
        home,
        URI.create(
            Env.optional(environment, RuntimeContract.Tasks.MODULE_SOURCES_HOST, DEFAULT_HOST)),
        secrets.text(secret));
  }
}
