package io.livegate.cli;

import io.livegate.cli.example.ExampleRepo;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code livegate example}: writes the bundled example live repository. */
@Command(
    name = "example",
    footerHeading = "%nExamples:%n",
    footer = {"  livegate example --dir /tmp/live"},
    mixinStandardHelpOptions = true,
    description =
        "Writes the bundled example live repository (two accounts, five units each, real"
            + " terraform) as a git repository with a base commit and a change commit.")
final class ExampleCli implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      required = true,
      description = "Where to write it; must not exist or be empty.")
  private Path dir;

  @Override
  public Integer call() {
    ExampleRepo.Commits commits = ExampleRepo.create(dir);
    Path accounts = dir.resolve(ExampleRepo.ACCOUNTS_FILE);
    spec.commandLine()
        .getOut()
        .printf(
            "wrote the example live repository to %s%n  base %s%n  head %s (changes both accounts' global units)%n%n"
                + "scan it with:%n  livegate scan --repo %s --base HEAD~1 --accounts %s%n",
            dir, commits.base(), commits.head(), dir, accounts);
    return 0;
  }
}
