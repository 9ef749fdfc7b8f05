package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.KeptOutputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Copies the output a command keeps beside its PID file ({@link ProcessCommandRunner#keptOutput})
 * to {@link KeptOutputs} the moment the command ends, before anything else runs, and gives it back
 * to a later run on another machine ({@link #restore}): what {@link TerraRun} reads to tell that an
 * interrupted apply had failed must outlive an ECS task's container.
 *
 * <p>A copy that cannot be made is logged, not thrown: the command's result stands, and the run
 * records it itself unless it is killed in the same moment.
 */
public final class DurableKeptOutputRunner implements CommandRunner {
  private static final List<String> FILES =
      List.of(ProcessCommandRunner.STDOUT, ProcessCommandRunner.STDERR);

  private final CommandRunner runner;
  private final KeptOutputs kept;
  private final Consumer<String> log;

  public DurableKeptOutputRunner(CommandRunner runner, KeptOutputs kept, Consumer<String> log) {
    this.runner = runner;
    this.kept = kept;
    this.log = log;
  }

  @Override
  public CommandResult run(Command command) {
    CommandResult result = runner.run(command);
    if (command.pidFile().isPresent()) {
      Path output = ProcessCommandRunner.keptOutput(command.pidFile().get());
      String name = output.getFileName().toString();
      for (String file : FILES) {
        try {
          if (Files.exists(output.resolve(file))) {
            kept.keep(name, file, Files.readAllBytes(output.resolve(file)));
          }
        } catch (IOException | LivegateException e) {
          log.accept(
              "cannot keep " + output.resolve(file) + " beyond this task: " + e.getMessage());
        }
      }
    }
    return result;
  }

  /**
   * Writes the output kept for the command with PID file {@code pidFile} back where it keeps it,
   * replacing what is there; nothing when none was kept.
   */
  public void restore(Path pidFile) {
    Path output = ProcessCommandRunner.keptOutput(pidFile);
    String name = output.getFileName().toString();
    for (String file : FILES) {
      Optional<byte[]> content = kept.read(name, file);
      if (content.isEmpty()) {
        continue;
      }
      try {
        Files.createDirectories(output);
        Files.write(output.resolve(file), content.get());
      } catch (IOException e) {
        throw new LivegateException(
            "cannot restore the kept output " + output.resolve(file) + ": " + e.getMessage(), e);
      }
    }
  }
}
