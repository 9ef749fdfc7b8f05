package io.livegate.cli;

import io.livegate.core.LivegateException;
import io.livegate.core.Printable;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code livegate} command and the composition root of the local runtime: the only place that
 * reads the process environment.
 */
@Command(
    name = "livegate",
    footerHeading = "%nExamples:%n",
    footer = {
      "  livegate demo",
      "  livegate deploy --repo ~/src/live --base main~1 --accounts livegate.hcl",
      "  livegate status --state-dir ~/.livegate",
      "  livegate help deploy"
    },
    mixinStandardHelpOptions = true,
    versionProvider = Livegate.Version.class,
    description = "Deploys the Terragrunt units a merge touches, in dependency order.",
    subcommands = {
      DemoCli.class,
      DeployCli.class,
      ServeCli.class,
      ResumeCli.class,
      StatusCli.class,
      UiCli.class,
      AdminCli.class,
      DoctorCli.class,
      ExampleCli.class,
      ScanCli.class,
      DriftCli.class,
      CommandLine.HelpCommand.class
    })
public final class Livegate {
  /** Exit code for a failure livegate explains (bad input, a cycle, a failed plan). */
  public static final int EXIT_FAILURE = 1;

  private final Map<String, String> environment;

  Livegate(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  Map<String, String> environment() {
    return environment;
  }

  public static void main(String[] args) {
    System.exit(
        execute(
            System.getenv(),
            new PrintWriter(System.out, true),
            new PrintWriter(System.err, true),
            args));
  }

  /** Runs the command line with the given environment and streams; returns the exit code. */
  public static int execute(
      Map<String, String> environment, PrintWriter out, PrintWriter err, String... args) {
    CommandLine commandLine = new CommandLine(new Livegate(environment));
    // Everything printed goes through Printable: unit paths, file names and terraform's output come
    // from the repository, and a control character in them must not reach the terminal raw. So
    // help prints without colours, whose escape sequences would be escaped too.
    commandLine.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
    commandLine.setOut(Printable.writer(out));
    commandLine.setErr(Printable.writer(err));
    commandLine.setParameterExceptionHandler(Livegate::usageError);
    commandLine.setExecutionExceptionHandler(
        (exception, line, parseResult) -> {
          if (exception instanceof LivegateException failure) {
            line.getErr().println("livegate: " + failure.getMessage());
            return EXIT_FAILURE;
          }
          throw exception;
        });
    return commandLine.execute(args);
  }

  /**
   * A usage error is the one error and where to read more: the whole usage would bury the error
   * under 40 lines of options.
   */
  private static int usageError(CommandLine.ParameterException error, String[] args) {
    CommandLine command = error.getCommandLine();
    PrintWriter err = command.getErr();
    String name = command.getCommandSpec().qualifiedName();
    err.println(name + ": " + error.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(error, err);
    err.println("Run '" + name + " --help' for its options and examples.");
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** The project version and the commit the CLI was built from (version.properties). */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties build = new Properties();
      try (InputStream in = Livegate.class.getResourceAsStream("version.properties")) {
        if (in == null) {
          throw new IOException("version.properties is missing from the build");
        }
        build.load(in);
      }
      return new String[] {
        "livegate " + build.getProperty("version") + " (commit " + build.getProperty("commit") + ")"
      };
    }
  }
}
