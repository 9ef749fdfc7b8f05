package io.livegate.cli;

import io.livegate.cli.example.ExampleRepo;
import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.SmtpRelay;
import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.deploy.Deployment;
import io.livegate.core.runner.RunnerArgv;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code livegate demo}: the whole flow on the bundled example, with real terraform. */
@Command(
    name = "demo",
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate demo",
      "  livegate demo --interactive",
      "  livegate demo --dir /tmp/livegate-demo --keep"
    },
    mixinStandardHelpOptions = true,
    description = {
      "Writes the bundled example live repository (two accounts, five units each) to a temp directory and"
          + " deploys its change commit with real terraform: scan, queue, release in order, plan, vote, apply.",
      "It approves on the voters' behalf after mailing each vote link; with --interactive it prints the links and waits for you."
    })
final class DemoCli implements Callable<Integer> {
  @ParentCommand private Livegate livegate;
  @Spec private CommandSpec spec;
  @Mixin private LocalOptions local;

  @Option(
      names = "--interactive",
      description = "Wait for real votes: open the printed links in a browser.")
  private boolean interactive;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Where to write the example (default: a new temp directory).")
  private Path dir;

  @Option(
      names = "--keep",
      description =
          "Keep the temp directory (example repository and state directory) after a successful run;"
              + " without it only a failed or interrupted run's files stay.")
  private boolean keep;

  @Override
  public Integer call() throws IOException {
    LocalRun.requireTool(RunnerArgv.TERRAFORM, livegate.environment());
    PrintWriter out = spec.commandLine().getOut();
    boolean temporary = dir == null;
    Path workspace = temporary ? Files.createTempDirectory("livegate-demo-") : dir;
    Path repository = workspace.resolve("live");
    ExampleRepo.create(repository);
    Path state = local.stateDir != null ? local.stateDir : workspace.resolve("state");
    out.println("example live repository: " + repository);
    out.println("state directory:         " + state);
    ProgressListener progress = message -> out.println("livegate: " + message);
    int exit;
    Optional<SmtpRelay> smtp = local.smtp(livegate.environment());
    try (LocalWiring wiring = new LocalWiring(state, local.sources::inStateDirectory)) {
      wiring.mailThrough(smtp);
      // A port in use must fail before the deployment is recorded as running.
      wiring.server(local.port);
      Path accountsFile = repository.resolve(ExampleRepo.ACCOUNTS_FILE);
      Deployment deployment =
          LocalRun.queue(
              wiring,
              repository,
              "HEAD~1",
              "HEAD",
              AccountsFiles.read(accountsFile),
              RunnerArgv.TERRAFORM,
              livegate.environment(),
              local.settings(!interactive).parallelism(),
              progress);
      exit =
          LocalRun.run(
              wiring,
              deployment,
              RunnerArgv.TERRAFORM,
              local,
              !interactive,
              // --interactive: the terminal is every voter's channel
              voter -> interactive,
              out);
    } catch (LivegateException e) {
      throw new LivegateException(e.getMessage() + "\n" + whereTheFilesAre(workspace), e);
    }
    // The state directory holds the metadb (some 40 MB): a demo that leaves it in the temp
    // directory each time fills the disk unseen.
    if (temporary && !keep && exit == 0) {
      deleteTree(workspace);
      out.println(
          "removed the demo's files in "
              + workspace
              + " (run it with --keep to keep them, or --dir DIR to choose where they go)");
    } else {
      out.println(whereTheFilesAre(workspace));
    }
    return exit;
  }

  private static String whereTheFilesAre(Path workspace) {
    return "the demo's files are in "
        + workspace
        + "; remove them when you are done with: rm -rf "
        + LocalRun.shellWord(workspace.toString());
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
