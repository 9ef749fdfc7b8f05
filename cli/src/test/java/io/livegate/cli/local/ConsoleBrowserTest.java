package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.cli.CliRun;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console in headless Chromium, as {@code livegate ui} serves it after two runs on one state
 * directory: at a phone's width (390 px) and a desktop's (1,400 px) no page scrolls sideways and no
 * unit name is cut off, axe-core finds nothing serious or critical, the earlier run's deployment is
 * still listed, and the failed apply's log is on its unit's page after the run ended. Screenshots
 * land in target/browser/.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@Tag("browser")
@Tag("terraform")
class ConsoleBrowserTest {
  private static final Path SHOTS = Path.of("target", "browser");

  @TempDir Path dir;

  @Test
  void theConsoleShowsEveryRunsDeploymentsReadablyAtPhoneAndDesktopWidths() throws Exception {
    Path state = dir.resolve("state");
    TestRepo failing = LiveRepos.failingApply(dir.resolve("apps"));
    assertThat(CliRun.autoApprovedDeploy(failing.root(), state).exitCode())
        .as("the earlier run fails its apply of app/b")
        .isEqualTo(1);
    TestRepo live = LiveRepos.devAccountChange(dir.resolve("live"));
    CliRun later = CliRun.autoApprovedDeploy(live.root(), state);
    assertThat(later.exitCode()).as(later.toString()).isZero();
    long failedUnit = Recorded.in(state).execution("app/b").id();

    Map<String, JsonNode> pages;
    try (UiServer ui = UiServer.start(state, 0)) {
      String base = ui.baseUrl();
      pages =
          HeadlessBrowser.layoutAndAccessibility(
              SHOTS,
              "list=" + base + "/",
              "failed-deployment=" + base + "/deployments/1",
              "deployment=" + base + "/deployments/2",
              "failed-unit=" + base + "/deployments/1/units/" + failedUnit);
    }

    assertThat(pages).hasSize(8);
    pages.forEach(
        (key, page) -> {
          assertThat(page.get("status").asInt()).as(key).isEqualTo(200);
          assertThat(page.get("horizontalScroll").asBoolean())
              .as(key + " scrolls sideways")
              .isFalse();
          assertThat(page.get("cutNames")).as(key + " cuts names off").isEmpty();
          assertThat(page.get("violations")).as(key + " axe-core").isEmpty();
          assertThat(Path.of(page.get("screenshot").asText())).exists();
        });
    for (int width : new int[] {390, 1400}) {
      assertThat(texts(pages.get("list@" + width).get("names")))
          .as("both runs' deployments are listed")
          .containsExactly("Deployment2", "Deployment1");
      assertThat(texts(pages.get("deployment@" + width).get("names")))
          .contains(
              LiveRepos.DEV_GLOBAL,
              LiveRepos.DEV_BAZ,
              LiveRepos.DEV_DOO,
              LiveRepos.DEV_BAR,
              LiveRepos.DEV_FOO);
      assertThat(pages.get("failed-unit@" + width).get("log").asText())
          .as("the failed apply's log, after the run ended")
          .contains("terraform -chdir=app/b apply ")
          .contains("(exit 1)")
          .contains("Error: Resource postcondition failed");
    }
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.asText()));
    return texts;
  }
}
