package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.aws.Secrets;
import io.livegate.core.LivegateException;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.tasks.ModuleSources;
import io.livegate.tests.moto.MotoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The tasks' token for private module sources, read from Secrets Manager (moto) into the home of
 * the user terraform runs as; {@code GitCredentialStoreTest} (process) shows git signing in with
 * it.
 */
@Tag("moto")
class ModuleSourcesTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @TempDir Path home;

  private SecretsManagerClient client;
  private Secrets secrets;

  @BeforeEach
  void clients() {
    MOTO.reset();
    client = MOTO.client(SecretsManagerClient.builder());
    secrets = new Secrets(client);
  }

  @AfterEach
  void close() {
    client.close();
  }

  private String secret(String name, String value) {
    return client.createSecret(request -> request.name(name).secretString(value)).arn();
  }

  @Test
  void theSecretsTokenSignsGitInToTheConfiguredHostOnly() throws Exception {
    String arn = secret("livegate/module-reader", "ghp_reader");

    ModuleSources.install(
        Map.of(
            RuntimeContract.Tasks.MODULE_SOURCES_TOKEN_SECRET,
            arn,
            RuntimeContract.Tasks.MODULE_SOURCES_HOST,
            "https://github.example.com"),
        secrets,
        home);

    assertThat(Files.readString(home.resolve(".git-credentials")))
        .isEqualTo("https://x-access-token:ghp_reader@github.example.com\n");
    assertThat(Files.readString(home.resolve(".gitconfig")))
        .startsWith("[credential \"https://github.example.com\"]\n");
  }

  @Test
  void withoutTheSecretNothingIsWritten() {
    ModuleSources.install(Map.of(), secrets, home);

    assertThat(home).isEmptyDirectory();
  }

  @Test
  void livegatesOwnGitHubTokenIsRefusedSinceTheCodeBeingDeployedCouldReadIt() {
    String arn = secret("livegate/github-token", "ghs_writer");

    assertThatThrownBy(
            () ->
                ModuleSources.install(
                    Map.of(
                        RuntimeContract.Tasks.MODULE_SOURCES_TOKEN_SECRET,
                        arn,
                        RuntimeContract.GitHub.TOKEN_SECRET,
                        arn),
                    secrets,
                    home))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("names livegate's own GitHub token");
    assertThat(home).isEmptyDirectory();
  }
}
