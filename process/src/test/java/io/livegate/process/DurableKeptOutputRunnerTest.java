package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.KeptOutputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command's kept output copied away the moment it ends and given back on another machine: the
 * machine here is a second plans directory, the store a map standing in for the bucket.
 */
class DurableKeptOutputRunnerTest {
  @TempDir Path dir;

  /** The bucket: what was kept, by name and file; {@code refuse} makes every write fail. */
  private static final class Kept implements KeptOutputs {
    final Map<String, byte[]> files = new HashMap<>();
    boolean refuse;

    @Override
    public void keep(String name, String file, byte[] content) {
      if (refuse) {
        throw new LivegateException("the bucket refused " + name + "/" + file);
      }
      files.put(name + "/" + file, content);
    }

    @Override
    public Optional<byte[]> read(String name, String file) {
      return Optional.ofNullable(files.get(name + "/" + file));
    }
  }

  private Command failing(Path plans) {
    return new Command(
        List.of("ls", dir.resolve("no-such-file").toString()),
        dir,
        Map.of(),
        Duration.ofMinutes(1),
        Optional.of(plans.resolve("d1-app-b.apply.pid")),
        Optional.empty());
  }

  @Test
  void aFailedCommandsKeptOutputIsCopiedAsItEndsAndRestoredOnAnotherMachine() throws Exception {
    Kept kept = new Kept();
    List<String> log = new ArrayList<>();
    Path first = Files.createDirectories(dir.resolve("first/plans"));

    CommandResult result =
        new DurableKeptOutputRunner(new ProcessCommandRunner(), kept, log::add).run(failing(first));

    assertThat(result.exitCode()).isNotZero();
    assertThat(kept.files)
        .containsOnlyKeys("d1-app-b.apply.output/stdout", "d1-app-b.apply.output/stderr");
    assertThat(log).isEmpty();
    Path second = Files.createDirectories(dir.resolve("second/plans"));
    new DurableKeptOutputRunner(new ProcessCommandRunner(), kept, log::add)
        .restore(second.resolve("d1-app-b.apply.pid"));
    Path restored = ProcessCommandRunner.keptOutput(second.resolve("d1-app-b.apply.pid"));
    assertThat(Files.readString(restored.resolve(ProcessCommandRunner.STDERR)))
        .isEqualTo(
            Files.readString(
                ProcessCommandRunner.keptOutput(first.resolve("d1-app-b.apply.pid"))
                    .resolve(ProcessCommandRunner.STDERR)))
        .contains("no-such-file");
  }

  @Test
  void aCopyThatCannotBeMadeIsLoggedAndTheCommandsResultStands() {
    Kept kept = new Kept();
    kept.refuse = true;
    List<String> log = new ArrayList<>();

    CommandResult result =
        new DurableKeptOutputRunner(new ProcessCommandRunner(), kept, log::add).run(failing(dir));

    assertThat(result.exitCode()).isNotZero();
    assertThat(log)
        .hasSize(2)
        .allSatisfy(line -> assertThat(line).contains("beyond this task: the bucket refused"));
  }

  @Test
  void nothingKeptRestoresNothing() {
    new DurableKeptOutputRunner(new ProcessCommandRunner(), new Kept(), line -> {})
        .restore(dir.resolve("d1-app-b.apply.pid"));

    assertThat(ProcessCommandRunner.keptOutput(dir.resolve("d1-app-b.apply.pid"))).doesNotExist();
  }
}
