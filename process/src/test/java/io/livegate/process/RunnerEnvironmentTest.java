package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RunnerEnvironmentTest {
  @Test
  void theContainerCredentialsNeverReachTerraform() {
    Map<String, String> task =
        Map.of(
            "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/secret-path",
            "AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://169.254.170.2/v2/credentials/x",
            "AWS_CONTAINER_AUTHORIZATION_TOKEN", "token",
            "AWS_REGION", "eu-west-1",
            "LIVEGATE_TASK_TOKEN", "task-token");

    assertThat(RunnerEnvironment.forCommand(task, Map.of())).containsOnlyKeys("AWS_REGION");
    // A command's environment that starts as a copy of the task's carries them in vain.
    assertThat(RunnerEnvironment.forCommand(task, task)).containsOnlyKeys("AWS_REGION");
  }

  @Test
  void aCommandsRoleSessionEndpointReplacesLivegatesOwnCredentials() {
    Map<String, String> livegate =
        Map.of(
            "AWS_PROFILE", "operator",
            "AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://169.254.170.2/v2/credentials/x",
            "AWS_CONTAINER_AUTHORIZATION_TOKEN", "task-token",
            "PATH", "/usr/bin");
    Map<String, String> sessions =
        Map.of(
            "AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:41234/0123456789abcdef",
            "AWS_CONTAINER_AUTHORIZATION_TOKEN", "endpoint-token");

    assertThat(RunnerEnvironment.forCommand(livegate, sessions))
        .containsOnly(
            Map.entry("PATH", "/usr/bin"),
            Map.entry(
                "AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:41234/0123456789abcdef"),
            Map.entry("AWS_CONTAINER_AUTHORIZATION_TOKEN", "endpoint-token"));
  }

  @Test
  void aCommandsRoleSessionReplacesLivegatesOwnCredentials() {
    Map<String, String> livegate =
        Map.of(
            "AWS_PROFILE", "operator",
            "AWS_ACCESS_KEY_ID", "AKIAOPERATOR",
            "AWS_SECRET_ACCESS_KEY", "operator-secret",
            "AWS_SHARED_CREDENTIALS_FILE", "/home/operator/.aws/credentials",
            "PATH", "/usr/bin");
    Map<String, String> session =
        Map.of(
            "AWS_ACCESS_KEY_ID", "ASIAPLANROLE",
            "AWS_SECRET_ACCESS_KEY", "role-secret",
            "AWS_SESSION_TOKEN", "role-session");

    assertThat(RunnerEnvironment.forCommand(livegate, session))
        .containsOnly(
            Map.entry("PATH", "/usr/bin"),
            Map.entry("AWS_ACCESS_KEY_ID", "ASIAPLANROLE"),
            Map.entry("AWS_SECRET_ACCESS_KEY", "role-secret"),
            Map.entry("AWS_SESSION_TOKEN", "role-session"));
  }

  @Test
  void withoutASessionLivegatesOwnCredentialsStay() {
    Map<String, String> livegate = Map.of("AWS_PROFILE", "operator", "PATH", "/usr/bin");

    assertThat(RunnerEnvironment.forCommand(livegate, Map.of("TF_IN_AUTOMATION", "1")))
        .containsOnlyKeys("AWS_PROFILE", "PATH", "TF_IN_AUTOMATION");
  }
}
