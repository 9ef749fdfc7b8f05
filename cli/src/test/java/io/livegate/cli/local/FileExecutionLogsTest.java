package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.runner.BoundedLog;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local execution logs stay bounded however much terraform prints. */
class FileExecutionLogsTest {
  private static final Instant AT = Instant.parse("2026-11-27T10:00:00Z");

  @TempDir Path dir;

  @Test
  void aLongOutputKeepsItsStartAndItsEndWhereTerraformsErrorIs() {
    FileExecutionLogs logs = new FileExecutionLogs(dir);
    String output = "start\n" + "x".repeat(500_000) + "\nError: the end\n";

    logs.append("d1-app-b", "terraform apply plan", 1, output, AT);

    String log = logs.read("d1-app-b").orElseThrow();
    assertThat(log)
        .startsWith("--- 2026-11-27T10:00:00Z  terraform apply plan  (exit 1)\n    start\n")
        .contains(" characters left out ---\n")
        .endsWith("\n    Error: the end\n");
    assertThat(log.length()).isLessThan(BoundedLog.HEAD + BoundedLog.TAIL + 200);
  }

  @Test
  void aLogStopsGrowingAtItsLimitAndSaysSo() {
    FileExecutionLogs logs = new FileExecutionLogs(dir);
    for (int i = 0; i < 20; i++) {
      logs.append("d1-app-b", "terraform plan", 0, "y".repeat(100_000), AT);
    }

    String log = logs.read("d1-app-b").orElseThrow();
    assertThat(log.length()).isLessThanOrEqualTo(BoundedLog.MAX_LOG);
    assertThat(log).endsWith("--- this log reached its size limit; later output is not kept\n");
    assertThat(logs.read("d1-other")).isEmpty();
  }
}
