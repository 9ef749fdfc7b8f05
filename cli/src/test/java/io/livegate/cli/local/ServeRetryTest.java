package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How often {@code livegate serve} runs a deployment again that stopped on an error: one that is
 * not a resource running out is retried {@code --retry-limit} times, then left to an operator with
 * a line saying so, still running and resumable. (A resource running out is retried until it is
 * freed: CrashSuiteTest's full-disk serve case runs with {@code --retry-limit 0}.)
 */
@Tag("terraform")
class ServeRetryTest {
  @TempDir Path dir;

  @Test
  void aDeploymentThatKeepsStoppingOnAnErrorIsRetriedUpToTheLimitThenLeftRunning()
      throws Exception {
    Path oracle = dir.resolve("oracle.log");
    Path state = dir.resolve("state");
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    String empty = repo.commit("empty");
    LiveRepos.oracleUnit(repo, "app/a", "v1", oracle);
    String merge = repo.commit("a");

    try (ServeProcess serve =
        ServeProcess.start(ServeProcess.oneAccount(dir, repo.root(), state, "--auto-approve"))) {
      serve.deliver(ServeProcess.merged(10, merge, empty), "delivery-10");
      serve.awaitLine("[app/a] Plan");
    }
    // The repository serve clones from is gone (moved, or its access revoked): every run of the
    // stored deployment now stops at its checkout, and waiting does not heal it.
    try (Stream<Path> files = Files.walk(repo.root())) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
    List<String> restart =
        ServeProcess.oneAccount(dir, repo.root(), state, "--auto-approve", "--retry-limit", "2");
    try (ServeProcess restarted = ServeProcess.start(restart)) {
      restarted.awaitLine("not retrying deployment 1 again");
      String log = restarted.log();
      assertThat(count(log, "deployment 1 stopped: cannot check out " + merge))
          .as("the first run and two retries:\n%s", log)
          .isEqualTo(3);
      assertThat(count(log, "retrying deployment 1 in ")).as(log).isEqualTo(2);
      assertThat(log)
          .contains("retrying deployment 1 in 5 s", "retrying deployment 1 in 10 s")
          .contains(
              "it stopped on an error 3 times in a row (--retry-limit 2). It stays running",
              "restart livegate serve, which resumes it");
    }

    assertThat(Recorded.in(state).deployment().status())
        .as("left to an operator, resumable")
        .isEqualTo(DeploymentStatus.RUNNING);
  }

  private static int count(String log, String text) {
    return (int) Pattern.compile(Pattern.quote(text)).matcher(log).results().count();
  }
}
