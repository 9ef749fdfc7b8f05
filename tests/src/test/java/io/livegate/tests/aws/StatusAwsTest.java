package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.aws.S3PlanStore;
import io.livegate.core.Html;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.vote.Vote;
import io.livegate.lambdas.admin.AdminHandler;
import io.livegate.tests.moto.MotoServer;
import io.livegate.tests.scenarios.LiveRepos;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate status --aws} as the admin Lambda answers it, on moto running the real ASL: after
 * a failed apply, the status names where the failed unit's log is kept in S3, and the log itself
 * (what terra-run kept of terraform's output) is read through the same Lambda, for an operator
 * whose own credentials may invoke it but not read the bucket; the unit's console page ({@code
 * livegate ui --aws}) shows that log too, and its plan as the same coloured diff as locally, from
 * the copy of the plan's text kept beside the log (the function may not read the plans). Before any
 * deployment, the list says where it looked: the metadb on AWS, not a state directory.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
@Tag("moto")
@Tag("terraform")
class StatusAwsTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @TempDir Path dir;

  private MotoDeployment flow;

  @BeforeEach
  void resetMoto() {
    MOTO.reset();
  }

  @AfterEach
  void closeClients() {
    if (flow != null) {
      flow.close();
    }
  }

  private List<String> lines(String request) {
    JsonNode answer = flow.admin.handle(MotoDeployment.json(request));
    assertThat(answer.path("done").asBoolean()).as(answer.toString()).isTrue();
    List<String> lines = new ArrayList<>();
    answer.get("lines").forEach(line -> lines.add(line.asText()));
    return lines;
  }

  @Test
  void theStatusOfAFailedApplyNamesItsLogInS3AndTheLambdaReadsTheLogOfAnyUnitAndItsConsolePage()
      throws Exception {
    flow =
        new MotoDeployment(
            MOTO,
            dir,
            LiveRepos.appsWithFailingApply(dir.resolve("live")),
            new MotoDeployment.Settings(Duration.ofMinutes(10), 3600, false));
    // ui --aws before any deployment: the list says where it looked, which is no state directory
    JsonNode empty =
        flow.admin.handle(
            MotoDeployment.json("{\"command\": \"page\", \"path\": \"/\", \"fragment\": true}"));
    assertThat(empty.get("body").asText())
        .isEqualTo(
            "<h1>Deployments</h1><p>No deployment is recorded yet in the metadb on AWS that this"
                + " admin function reads.</p><ul class=\"cards\" id=\"deployments\"></ul>");

    flow.deploy();
    flow.drive(e -> Vote.Choice.APPROVE);
    Execution failed = flow.execution("app/b");
    assertThat(failed.status()).isEqualTo(ExecutionStatus.FAILED);
    String location = "s3://livegate-plans/logs/" + failed.name() + ".log";

    List<String> status =
        lines("{\"command\": \"status\", \"deployment\": " + flow.deploymentId + "}");

    assertThat(status.get(0))
        .isEqualTo("deployment " + flow.deploymentId + ": " + flow.deploymentStatus().id());
    int reason =
        status.indexOf(status.stream().filter(l -> l.startsWith("  failed ")).findFirst().get());
    assertThat(status.get(reason)).startsWith("  failed      app/b: ");
    assertThat(status.stream().filter(l -> l.startsWith("  log ")))
        .as("only app/b failed; its log follows its reason")
        .containsExactly("  log         " + location);
    assertThat(status.subList(reason, status.size())).contains("  log         " + location);

    List<String> log =
        lines(
            "{\"command\": \"status\", \"deployment\": "
                + flow.deploymentId
                + ", \"log\": \"app/b\"}");

    // app/b's own execution, then its rollback's, each under the place its log is kept
    List<String> expected = new ArrayList<>();
    for (Execution ofB : flow.executions()) {
      if (ofB.unit().equals("app/b")) {
        expected.add(
            "log of app/b"
                + (ofB.rollback() ? " (rollback)" : "")
                + " in deployment "
                + flow.deploymentId
                + ": s3://livegate-plans/logs/"
                + ofB.name()
                + ".log");
        expected.addAll(flow.logs.read(ofB.name()).orElseThrow().lines().toList());
      }
    }
    assertThat(log).containsExactlyElementsOf(expected);
    assertThat(String.join("\n", log))
        .containsPattern("(?m)^--- \\S+  terraform -chdir=app/b apply .*\\(exit 1\\)$")
        .contains("Error: Resource postcondition failed");

    JsonNode json =
        MotoDeployment.json(
            String.join(
                "\n",
                lines(
                    "{\"command\": \"status\", \"deployment\": "
                        + flow.deploymentId
                        + ", \"json\": true}")));
    JsonNode failure = json.get("deployments").get(0).get("failures").get(0);
    assertThat(failure.get("unit").asText()).isEqualTo("app/b");
    assertThat(failure.get("log").asText()).isEqualTo(location);

    // ui --aws: app/b's console page, rendered by the Lambda, shows the log kept in S3
    JsonNode page =
        flow.admin.handle(
            MotoDeployment.json(
                "{\"command\": \"page\", \"path\": \"/deployments/"
                    + flow.deploymentId
                    + "/units/"
                    + failed.id()
                    + "\", \"fragment\": true}"));
    assertThat(page.get("status").asInt()).as(page.toString()).isEqualTo(200);
    String body = page.get("body").asText();
    assertThat(body)
        .contains("<h1 id=\"unit\">app/<wbr>b")
        .contains("Error: Resource postcondition failed");
    // the plan as the local console shows it, a coloured diff of terraform's text (the copy kept
    // beside the log: the function may not read plans/*), not the note for a plan without one
    String planText = new S3PlanStore(flow.s3, "livegate-plans").text(failed.planArtifact());
    assertThat(planText).contains("# terraform_data.this will be created");
    assertThat(body)
        .contains("<pre id=\"plan\">" + Html.planDiff(planText) + "</pre>")
        .containsPattern(
            "<span class=\"add\"> *\\+ resource &quot;terraform_data&quot; &quot;this&quot; \\{</span>")
        .containsPattern("<span class=\"add\"> *\\+ input += &quot;b&quot;</span>")
        .doesNotContain(Html.escape(AdminHandler.NO_PLAN_TEXT));

    assertThat(
            flow.admin
                .handle(MotoDeployment.json("{\"command\": \"status\", \"deployment\": 999}"))
                .toString())
        .isEqualTo("{\"lines\":[\"there is no deployment 999 on AWS\"],\"done\":false}");
  }
}
