package io.livegate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code livegate demo} and its temporary files (its metadb alone is some 40 MB): a demo that
 * succeeds removes them and says so, one that fails keeps them and prints the exact command that
 * removes them. The demo writes where the system's temporary directory is, as it does for a user.
 */
class DemoCliTest {
  private static final Pattern EXAMPLE =
      Pattern.compile("(?m)^example live repository: (\\S+)/live$");

  private Path workspace;

  @AfterEach
  void removeWhatTheDemoLeft() throws IOException {
    if (workspace != null && Files.exists(workspace)) {
      try (Stream<Path> paths = Files.walk(workspace)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
  }

  /** The demo's own directory, from the line that names its example repository. */
  private Path workspaceOf(CliRun run) {
    Matcher example = EXAMPLE.matcher(run.out());
    assertThat(example.find()).as(run.toString()).isTrue();
    workspace = Path.of(example.group(1));
    assertThat(workspace.getFileName().toString()).startsWith("livegate-demo-");
    return workspace;
  }

  @Test
  void aDemoThatFailsKeepsItsFilesAndPrintsTheCommandThatRemovesThem() throws Exception {
    CliRun run;
    int port;
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = taken.getLocalPort();
      run = CliRun.withPath("demo", "--port", Integer.toString(port));
    }

    Path files = workspaceOf(run);
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    List<String> err = run.errLines();
    assertThat(err).hasSize(2);
    assertThat(err.get(0))
        .startsWith("livegate: cannot listen on 127.0.0.1:" + port + ": ")
        .endsWith("; run it again with --port 0 to take a free port, or --port N for another one");
    assertThat(err.get(1))
        .isEqualTo(
            "the demo's files are in "
                + files
                + "; remove them when you are done with: rm -rf "
                + files);
    assertThat(files.resolve("live")).isDirectory();
  }

  @Test
  @Tag("terraform")
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aDemoThatSucceedsRemovesItsFilesAndSaysWhereTheyWere() {
    CliRun run = CliRun.withPath("demo", "--port", "0");

    Path files = workspaceOf(run);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out())
        .endsWith(
            "\nremoved the demo's files in "
                + files
                + " (run it with --keep to keep them, or --dir DIR to choose where they go)\n");
    assertThat(files).doesNotExist();
  }
}
