package io.livegate.tests.aws;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.livegate.core.drift.ReportDrift;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.scan.testing.TestRepo;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.tasks.TaskWiring;
import io.livegate.tests.moto.MotoServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The scheduled drift task as the ECS container wires it from its environment (the GitHub token
 * from Secrets Manager in moto, GitHub a WireMock stand-in): it clones the trunk's head, plans
 * every unit with real terraform, and reports the one drifted unit on one GitHub issue, which the
 * next run updates instead of opening another.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class DriftScheduleTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String ISSUES = "/repos/acme/live/issues";
  private static final String OPEN_ISSUES =
      ISSUES + "?state=open&labels=livegate-drift&per_page=100";

  @TempDir Path dir;

  @Test
  void aScheduledRunReportsTheDriftedUnitOnOneIssueThatTheNextRunUpdates() throws IOException {
    // the task's terraform runs as the image's user, which must reach the units' local states
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path states = dir.resolve("states");
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\n");
    for (String unit : List.of("a", "b")) {
      repo.write("app/" + unit + "/terragrunt.hcl", "inputs = {}\n")
          .write(
              "app/" + unit + "/main.tf",
              "terraform {\n  backend \"local\" {\n    path = \""
                  + states.resolve(unit + ".tfstate")
                  + "\"\n  }\n}\n\nvariable \"size\" {\n  default = \"small\"\n}\n\n"
                  + "resource \"terraform_data\" \"this\" {\n  input = var.size\n}\n");
    }
    repo.commit("a and b");
    for (String unit : List.of("a", "b")) {
      terraform(repo.root().resolve("app/" + unit), "init");
      terraform(repo.root().resolve("app/" + unit), "apply", "-auto-approve");
    }
    terraform(repo.root().resolve("app/a"), "apply", "-auto-approve", "-var", "size=large");
    MOTO.reset();
    Map<String, String> environment = MOTO.wiringEnvironment();
    try (SecretsManagerClient secrets = MOTO.client(SecretsManagerClient.builder())) {
      environment.put(
          RuntimeContract.GitHub.TOKEN_SECRET,
          secrets.createSecret(r -> r.name("livegate/github").secretString("ghs_drift")).arn());
    }
    environment.put(RuntimeContract.GitHub.API_URL, GITHUB.baseUrl());
    environment.put(RuntimeContract.Tasks.REPO_URL, repo.root().toString());
    environment.put(RuntimeContract.Tasks.WORKSPACE, dir.resolve("workspace").toString());
    environment.put(RuntimeContract.Engine.RUNNER, "terraform");
    environment.put(
        RuntimeContract.Tasks.ACCOUNTS,
        "account \"apps\" {\n  path   = \"app\"\n  voters = [\"ops@example.com\"]\n}\n");
    GITHUB.stubFor(get(urlEqualTo(OPEN_ISSUES)).willReturn(aResponse().withBody("[]")));
    GITHUB.stubFor(post(ISSUES).willReturn(aResponse().withStatus(201).withBody("{\"number\":5}")));
    GITHUB.stubFor(patch(urlEqualTo(ISSUES + "/5")).willReturn(aResponse().withBody("{}")));

    StringWriter first = new StringWriter();
    int firstExit = drift(environment, first);

    assertThat(firstExit).as(first.toString()).isEqualTo(2);
    assertThat(first.toString())
        .contains("2 units planned, 1 drifted, 0 could not be planned")
        .contains("drift issue on acme/live: created")
        .contains("drift mail to ops@example.com");
    GITHUB.verify(
        1,
        postRequestedFor(urlEqualTo(ISSUES))
            .withHeader("Authorization", equalTo("Bearer ghs_drift"))
            .withRequestBody(
                matchingJsonPath(
                    "$.body", containing("| `app/a` | apps | terraform_data.this: update |")))
            .withRequestBody(matchingJsonPath("$.body", containing("1 drifted"))));

    GITHUB.stubFor(
        get(urlEqualTo(OPEN_ISSUES))
            .willReturn(
                aResponse()
                    .withBody(
                        "[{\"number\":5,\"body\":\"" + ReportDrift.MARKER + "\\nfirst run\"}]")));
    StringWriter second = new StringWriter();
    int secondExit = drift(environment, second);

    assertThat(secondExit).as(second.toString()).isEqualTo(2);
    assertThat(second.toString()).contains("drift issue on acme/live: updated");
    GITHUB.verify(1, postRequestedFor(urlEqualTo(ISSUES)));
    GITHUB.verify(
        1,
        patchRequestedFor(urlEqualTo(ISSUES + "/5"))
            .withRequestBody(matchingJsonPath("$.body", containing("app/a"))));
  }

  private static int drift(Map<String, String> environment, StringWriter log) {
    PrintWriter out = new PrintWriter(log, true);
    return TaskWiring.fromEnvironment(environment, out).drift().run("acme/live", "main");
  }

  private static void terraform(Path unit, String... arguments) {
    List<String> argv = new ArrayList<>(List.of("terraform", "-chdir=" + unit));
    argv.addAll(List.of(arguments));
    argv.addAll(List.of("-input=false", "-no-color"));
    CommandResult result =
        new ProcessCommandRunner().run(new Command(argv, unit, Map.of(), Duration.ofMinutes(2)));
    if (result.exitCode() != 0) {
      throw new IllegalStateException(String.join(" ", argv) + ":\n" + result.output());
    }
  }
}
