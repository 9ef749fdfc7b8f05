package io.livegate.github;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.livegate.core.pr.PlanComment;
import io.livegate.core.pr.PullRequestCommenter.Comment;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The plan comment's requests against a WireMock stand-in for GitHub's issue comments API. */
class GitHubCommentsTest {
  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String COMMENTS = "/repos/acme/live/issues/7/comments";
  private static final ObjectMapper JSON = new ObjectMapper();

  private GitHubComments comments;

  @BeforeEach
  void client() {
    comments = new GitHubComments(new GitHubStubs(GITHUB.baseUrl()).client);
  }

  @Test
  void theMarkedCommentIsFoundOnALaterPage() {
    String page2 = GITHUB.baseUrl() + "/repositories/1/issues/7/comments?per_page=100&page=2";
    GITHUB.stubFor(
        get(COMMENTS + "?per_page=100")
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader(
                        "Link", "<" + page2 + ">; rel=\"next\", <" + page2 + ">; rel=\"last\"")
                    .withBody(
                        "[{\"id\":1,\"body\":\"LGTM\"},"
                            + "{\"id\":2,\"body\":\"quoting "
                            + "<!-- livegate:plans --> is not ours\"}]")));
    GITHUB.stubFor(
        get("/repositories/1/issues/7/comments?per_page=100&page=2")
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody(
                        JSON.createArrayNode()
                            .add(
                                JSON.createObjectNode()
                                    .put("id", 42)
                                    .put("body", PlanComment.MARKER + "\nplans"))
                            .toString())));

    Optional<Comment> found = comments.find("acme/live", 7, PlanComment.MARKER);

    assertThat(found).contains(new Comment(42, PlanComment.MARKER + "\nplans"));
    GITHUB.verify(
        getRequestedFor(urlEqualTo(COMMENTS + "?per_page=100"))
            .withHeader("Authorization", equalTo("Bearer " + GitHubStubs.TOKEN)));
  }

  @Test
  void noMarkedCommentOnTheOnlyPageIsNone() {
    GITHUB.stubFor(
        get(COMMENTS + "?per_page=100").willReturn(aResponse().withStatus(200).withBody("[]")));

    assertThat(comments.find("acme/live", 7, PlanComment.MARKER)).isEmpty();
  }

  @Test
  void aNextPageOutsideTheApiIsNotFollowedWithTheToken() {
    GITHUB.stubFor(
        get(COMMENTS + "?per_page=100")
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Link", "<https://evil.example.com/steal>; rel=\"next\"")
                    .withBody("[]")));

    assertThatThrownBy(() -> comments.find("acme/live", 7, PlanComment.MARKER))
        .isInstanceOf(GitHubException.class)
        .hasMessageContaining("refusing to send the token to https://evil.example.com/steal");
  }

  @Test
  void createPostsTheBodyAndUpdatePatchesTheComment() {
    GITHUB.stubFor(post(COMMENTS).willReturn(aResponse().withStatus(201).withBody("{}")));
    GITHUB.stubFor(
        patch(urlPathEqualTo("/repos/acme/live/issues/comments/42"))
            .willReturn(aResponse().withStatus(200).withBody("{}")));
    String body = PlanComment.MARKER + "\n<code>app/\"x\" $(id)</code>";

    comments.create("acme/live", 7, body);
    comments.update("acme/live", 42, body);

    String json = JSON.createObjectNode().put("body", body).toString();
    GITHUB.verify(1, postRequestedFor(urlEqualTo(COMMENTS)).withRequestBody(equalToJson(json)));
    GITHUB.verify(
        1,
        patchRequestedFor(urlEqualTo("/repos/acme/live/issues/comments/42"))
            .withRequestBody(equalToJson(json)));
  }
}
