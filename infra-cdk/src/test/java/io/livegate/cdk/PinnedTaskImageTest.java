package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With {@code taskImage}, every task definition runs the operator's image by its digest, and the
 * execution roles may pull from its ECR repository only; without it, the image is the stack's
 * asset.
 */
class PinnedTaskImageTest {
  private static final String DIGEST =
      "sha256:0f3a2b1c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8";
  private static final String IMAGE =
      "123456789012.dkr.ecr.eu-west-1.amazonaws.com/livegate/tasks@" + DIGEST;

  @Test
  void everyTaskDefinitionRunsTheImageByItsDigestAndMayPullOnlyItsRepository() {
    JsonNode json =
        Iam.JSON.valueToTree(
            Fixtures.synth(Fixtures.config().taskImage(IMAGE).build()).template().toJSON());

    List<String> images = new ArrayList<>();
    LivegateStackTest.resources(json, "AWS::ECS::TaskDefinition")
        .values()
        .forEach(
            task ->
                task.path("Properties")
                    .path("ContainerDefinitions")
                    .forEach(container -> images.add(container.path("Image").toString())));
    assertThat(images).hasSize(5);
    assertThat(images)
        .allSatisfy(
            image ->
                assertThat(image)
                    .contains("123456789012.dkr.ecr.eu-west-1.")
                    .contains("/livegate/tasks@" + DIGEST)
                    .doesNotContain("cdk-hnb659fds-container-assets"));
    String policies = json.path("Resources").toString();
    assertThat(policies)
        .contains(":ecr:eu-west-1:123456789012:repository/livegate/tasks\"")
        .contains("ecr:BatchGetImage");
  }

  @Test
  void withoutItTheTasksRunTheStacksOwnAsset() {
    JsonNode container =
        LivegateStackTest.resources(Shared.template(), "AWS::ECS::TaskDefinition")
            .values()
            .iterator()
            .next()
            .path("Properties")
            .path("ContainerDefinitions")
            .get(0);
    assertThat(container.path("Image").toString()).contains("cdk-hnb659fds-container-assets");
  }
}
