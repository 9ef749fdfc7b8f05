package io.livegate.cli.local;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.livegate.cli.Livegate;
import io.livegate.core.scan.testing.TestRepo;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.sql.testing.Webhooks;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate serve} plans pull requests: a signed {@code pull_request.opened} posted to its
 * webhook gets a plan per changed unit, run with real terraform, whose statuses and plan comment
 * reach GitHub's API (a WireMock stand-in).
 */
@Tag("terraform")
class ServePullRequestPlansTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SERVING = Pattern.compile("POST (http://\\S+)/webhook");
  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;
  private final WireMockServer github = new WireMockServer(wireMockConfig().dynamicPort());
  private Process serve;

  @BeforeEach
  void stubGitHub() {
    github.start();
    github.stubFor(post(urlPathMatching("/repos/.+/statuses/.+")).willReturn(created("{}")));
    github.stubFor(
        get(urlPathMatching("/repos/.+/issues/\\d+/comments"))
            .willReturn(aResponse().withStatus(200).withBody("[]")));
    github.stubFor(
        post(urlPathMatching("/repos/.+/issues/\\d+/comments")).willReturn(created("{\"id\": 7}")));
    github.stubFor(
        patch(urlPathMatching("/repos/.+/issues/comments/\\d+"))
            .willReturn(aResponse().withStatus(200).withBody("{\"id\": 7}")));
  }

  @AfterEach
  void stop() {
    if (serve != null) {
      serve.destroyForcibly();
    }
    github.stop();
  }

  @Test
  void anOpenedPullRequestGetsItsPlansAsStatusesAndAPlanComment() throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("app/a/terragrunt.hcl", "inputs = {}\n")
        .write("app/a/main.tf", "resource \"terraform_data\" \"app\" {\n  input = \"a-1\"\n}\n");
    String base = repo.commit("one unit");
    repo.write("app/a/main.tf", "resource \"terraform_data\" \"app\" {\n  input = \"a-2\"\n}\n");
    String head = repo.commit("pull request");
    Path accounts =
        Files.writeString(dir.resolve("livegate.hcl"), "account \"all\" {\n  path = \"\"\n}\n");
    Path secret = Files.writeString(dir.resolve("webhook-secret"), Webhooks.SECRET);
    Path token = Files.writeString(dir.resolve("github-token"), "ghs_serve-test");
    String webhook = startServe(repo.root(), accounts, secret, token);

    ObjectNode opened = Webhooks.opened(12, head);
    ((ObjectNode) opened.get("pull_request").get("base")).put("sha", base);
    HttpResponse<String> answer = deliver(webhook, opened);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);

    JsonNode unitStatus = await(() -> lastStatus("livegate/plan: app/a", "success"));
    assertThat(unitStatus.path("description").asText())
        .isEqualTo("+1 ~0 -0, new providers terraform.io/builtin/terraform");
    JsonNode comment = await(() -> lastComment("terraform_data.app will be created"));
    assertThat(comment.path("body").asText()).contains("app/a");
    assertThat(requests("/repos/Codertocat/Hello-World/statuses/" + head))
        .as("every status is on the pull request's head")
        .isNotEmpty();
  }

  private String startServe(Path repo, Path accounts, Path secret, Path token) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Livegate.class.getName());
    command.addAll(
        List.of(
            "serve",
            "--repo-url",
            repo.toString(),
            "--repository",
            Webhooks.REPOSITORY,
            "--trunk",
            Webhooks.TRUNK,
            "--accounts",
            accounts.toString(),
            "--webhook-secret-file",
            secret.toString(),
            "--github-token-file",
            token.toString(),
            "--github-api-url",
            github.baseUrl(),
            "--runner",
            "terraform",
            "--port",
            "0",
            "--state-dir",
            dir.resolve("state").toString()));
    serve = new ProcessBuilder(command).redirectErrorStream(true).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
    List<String> lines = new ArrayList<>();
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      lines.add(line);
      Matcher serving = SERVING.matcher(line);
      if (serving.find()) {
        Thread drain = new Thread(() -> out.lines().forEach(lines::add));
        drain.setDaemon(true);
        drain.start();
        return serving.group(1) + "/webhook";
      }
    }
    throw new AssertionError("serve did not start:\n" + String.join("\n", lines));
  }

  private static HttpResponse<String> deliver(String webhook, ObjectNode payload) throws Exception {
    byte[] body = Webhooks.bytes(payload);
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(webhook))
                .header("X-GitHub-Event", "pull_request")
                .header("X-GitHub-Delivery", UUID.randomUUID().toString())
                .header(
                    "X-Hub-Signature-256",
                    WebhookSignature.sign(WebhookSignature.secret(Webhooks.SECRET), body))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode lastStatus(String context, String state) throws Exception {
    JsonNode last = null;
    for (ServeEvent event : events()) {
      if (event.getRequest().getUrl().contains("/statuses/")) {
        JsonNode body = JSON.readTree(event.getRequest().getBodyAsString());
        if (body.path("context").asText().equals(context)) {
          last = body;
        }
      }
    }
    return last != null && last.path("state").asText().equals(state) ? last : null;
  }

  private JsonNode lastComment(String containing) throws Exception {
    JsonNode last = null;
    for (ServeEvent event : events()) {
      if (event.getRequest().getUrl().contains("/comments")
          && !event.getRequest().getMethod().getName().equals("GET")) {
        last = JSON.readTree(event.getRequest().getBodyAsString());
      }
    }
    return last != null && last.path("body").asText().contains(containing) ? last : null;
  }

  private List<ServeEvent> requests(String path) {
    return events().stream().filter(event -> event.getRequest().getUrl().equals(path)).toList();
  }

  /** What the stand-in received, oldest first. */
  private List<ServeEvent> events() {
    List<ServeEvent> events = new ArrayList<>(github.getAllServeEvents());
    java.util.Collections.reverse(events);
    return events;
  }

  private interface Probe {
    JsonNode find() throws Exception;
  }

  private JsonNode await(Probe probe) throws Exception {
    Instant deadline = Instant.now().plus(WAIT);
    while (Instant.now().isBefore(deadline)) {
      JsonNode found = probe.find();
      if (found != null) {
        return found;
      }
      if (!serve.isAlive()) {
        throw new AssertionError("serve exited with " + serve.exitValue());
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "waited in vain; GitHub received:\n"
            + String.join(
                "\n",
                events().stream()
                    .map(
                        e ->
                            e.getRequest().getMethod()
                                + " "
                                + e.getRequest().getUrl()
                                + " "
                                + e.getRequest().getBodyAsString())
                    .toList()));
  }

  private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder created(
      String body) {
    return aResponse().withStatus(201).withBody(body);
  }
}
