package io.livegate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bundled example is the README's first command, so it must scan as documented. */
class ExampleCliTest {
  @TempDir Path dir;

  @Test
  void theExampleScansToBothAccountsWithSharedServicesFirst() throws Exception {
    Path live = dir.resolve("live");
    CliRun written = CliRun.of("example", "--dir", live.toString());
    assertThat(written.exitCode()).as(written.toString()).isZero();
    assertThat(written.out()).contains("livegate scan --repo " + live);

    CliRun scan =
        CliRun.of(
            "scan",
            "-q",
            "--repo",
            live.toString(),
            "--base",
            "HEAD~1",
            "--accounts",
            live.resolve("livegate.hcl").toString(),
            "--format",
            "json");

    assertThat(scan.exitCode()).as(scan.toString()).isZero();
    JsonNode stack = new ObjectMapper().readTree(scan.out());
    List<String> units = new ArrayList<>();
    List<Integer> layers = new ArrayList<>();
    stack
        .path("executions")
        .forEach(
            e -> {
              units.add(e.path("unit").asText());
              layers.add(e.path("layer").asInt());
            });
    assertThat(units).hasSize(10);
    assertThat(units.subList(0, 5))
        .allSatisfy(unit -> assertThat(unit).startsWith("shared-services-account/"));
    assertThat(units.subList(5, 10))
        .allSatisfy(unit -> assertThat(unit).startsWith("dev-account/"));
    assertThat(layers).containsExactly(0, 1, 1, 2, 3, 4, 5, 5, 6, 7);
  }

  @Test
  void theExampleRefusesADirectoryThatIsNotEmpty() throws Exception {
    Files.writeString(dir.resolve("keep.txt"), "mine");

    CliRun written = CliRun.of("example", "--dir", dir.toString());

    assertThat(written.exitCode()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(written.err())
        .startsWith("livegate: " + dir + " already exists and is not an empty directory");
    assertThat(Files.readString(dir.resolve("keep.txt"))).isEqualTo("mine");
  }
}
