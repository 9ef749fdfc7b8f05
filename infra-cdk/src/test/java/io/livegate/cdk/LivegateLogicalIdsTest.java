package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The logical IDs of the fixture installation's resources, held to a golden list. CloudFormation
 * replaces a resource whose logical ID changes, and CDK derives the ID from the construct path: a
 * refactoring that moves a resource in the construct tree would replace the metadb, the VPC or the
 * roles of every installation. Lambda versions are left out: their IDs hash the function's
 * configuration and change, as they should, with every new jar.
 */
class LivegateLogicalIdsTest {
  private static final Set<String> UNSTABLE = Set.of("AWS::Lambda::Version", "AWS::CDK::Metadata");

  @Test
  void everyResourceKeepsTheLogicalIdOfInstallationsAlreadyDeployed() throws IOException {
    List<String> golden;
    try (InputStream in = getClass().getResourceAsStream("logical-ids.txt")) {
      golden =
          new String(in.readAllBytes(), StandardCharsets.UTF_8)
              .lines()
              .filter(line -> !line.isBlank() && !line.startsWith("#"))
              .toList();
    }
    Set<String> ids = new TreeSet<>();
    Shared.template()
        .path("Resources")
        .fields()
        .forEachRemaining(
            resource -> {
              if (!UNSTABLE.contains(resource.getValue().path("Type").asText())) {
                ids.add(resource.getKey());
              }
            });
    assertThat(ids).containsExactlyElementsOf(golden);
  }
}
