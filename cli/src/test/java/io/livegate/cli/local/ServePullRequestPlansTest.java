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
import io.livegate.scan.testing.TestRepo;
import io.livegate.sql.testing.Webhooks;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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

  @TempDir Path dir;
  private final WireMockServer github = new WireMockServer(wireMockConfig().dynamicPort());
  private ServeProcess serve;

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
      serve.close();
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
    serve = serve(repo);

    open(12, base, head);

    JsonNode unitStatus = await(() -> lastStatus("livegate/plan: app/a", "success"));
    assertThat(unitStatus.path("description").asText())
        .isEqualTo("+1 ~0 -0, new providers terraform.io/builtin/terraform");
    JsonNode comment = await(() -> lastComment("terraform_data.app will be created"));
    assertThat(comment.path("body").asText()).contains("app/a");
    assertThat(requests("/repos/Codertocat/Hello-World/statuses/" + head))
        .as("every status is on the pull request's head")
        .isNotEmpty();
  }

  @Test
  void aPullRequestsStackSourceFromAnotherRepositoryOfThisMachineIsRefusedWithAClearError()
      throws Exception {
    // a repository of the host that the pull request's author has no business reading
    TestRepo other = TestRepo.create(dir.resolve("private"));
    other.write("units/app/terragrunt.hcl", "inputs = {}\n").write("units/app/main.tf", "\n");
    other.commit("private catalog");
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("app/a/terragrunt.hcl", "inputs = {}\n").write("app/a/main.tf", "\n");
    String base = repo.commit("one unit");
    String source = "git::file://" + other.root() + "//units/app";
    repo.write(
        "live/terragrunt.stack.hcl",
        "unit \"app\" {\n  source = \"" + source + "\"\n  path   = \"app\"\n}\n");
    String head = repo.commit("pull request: a unit from the host's private repository");
    serve = serve(repo);

    open(13, base, head);

    JsonNode scanStatus = await(() -> lastStatus("livegate/plan", "failure"));
    System.out.println("livegate/plan: " + scanStatus.path("description").asText());
    assertThat(scanStatus.path("description").asText())
        .startsWith(
            "scan failed: live/terragrunt.stack.hcl:1: unit \"app\" (live/.terragrunt-stack/app)");
    serve.await(
        () -> serve.log().contains("livegate fetches it only when the operator passes"),
        "serve to log the whole reason");
    assertThat(serve.log())
        .contains(
            "scan failed: live/terragrunt.stack.hcl:1: unit \"app\" (live/.terragrunt-stack/app):"
                + " cannot fetch its source file://"
                + other.root()
                + "//units/app: a file:// source is a repository of this machine outside the one being deployed;"
                + " livegate fetches it only when the operator passes --allow-local-sources");
    assertThat(dir.resolve("state/sources")).as("nothing was fetched").doesNotExist();
  }

  /** serve of {@code repo} as one account, posting to the GitHub stand-in with a token. */
  private ServeProcess serve(TestRepo repo) throws Exception {
    Path token = Files.writeString(dir.resolve("github-token"), "ghs_serve-test");
    return ServeProcess.start(
        ServeProcess.oneAccount(
            dir,
            repo.root(),
            dir.resolve("state"),
            "--github-token-file",
            token.toString(),
            "--github-api-url",
            github.baseUrl()));
  }

  /** Delivers pull request {@code number} opened from {@code base} to {@code head}. */
  private void open(int number, String base, String head) throws Exception {
    ObjectNode opened = Webhooks.opened(number, head);
    ((ObjectNode) opened.get("pull_request").get("base")).put("sha", base);
    HttpResponse<String> answer = serve.deliver(opened, UUID.randomUUID().toString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
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

  /**
   * Waits until {@code probe} finds what GitHub received, while serve works ({@link
   * ServeProcess#await}).
   */
  private JsonNode await(Probe probe) throws Exception {
    JsonNode[] found = new JsonNode[1];
    serve.await(
        () -> {
          try {
            found[0] = probe.find();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          return found[0] != null;
        },
        "GitHub to receive what the test awaits");
    return found[0];
  }

  private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder created(
      String body) {
    return aResponse().withStatus(201).withBody(body);
  }
}
