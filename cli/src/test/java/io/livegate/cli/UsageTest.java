package io.livegate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** How the CLI answers a person's mistakes and questions: one error, and where to read more. */
class UsageTest {
  @TempDir Path dir;

  @Test
  void durationsAreReadAsPeopleWriteThemAndIsoStillWorks() {
    assertThat(Durations.parse("90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Durations.parse("15m")).isEqualTo(Duration.ofMinutes(15));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("3d")).isEqualTo(Duration.ofDays(3));
    assertThat(Durations.parse("PT24H")).isEqualTo(Duration.ofHours(24));
  }

  @Test
  void aBadDurationIsOneErrorAndWhereToReadMore() {
    CliRun run = CliRun.of("deploy", "--base", "HEAD~1", "--vote-timeout", "soon");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "livegate deploy: Invalid value for option '--vote-timeout': 'soon' is not a duration:"
                + " write it like 90s, 15m, 1h or 3d\n"
                + "Run 'livegate deploy --help' for its options and examples.\n");
  }

  @Test
  void aMissingOptionIsOneErrorAndWhereToReadMoreNotTheWholeUsage() {
    CliRun run = CliRun.of("deploy", "--grace-period", "90s");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "livegate deploy: Missing required option: '--base=REV'\n"
                + "Run 'livegate deploy --help' for its options and examples.\n");
  }

  @Test
  void anUnknownCommandIsOneErrorWithASuggestion() {
    CliRun run = CliRun.of("stauts");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "livegate: Unmatched argument at index 0: 'stauts'\n"
                + "Did you mean: livegate status?\n"
                + "Run 'livegate --help' for its options and examples.\n");
  }

  @Test
  void helpWithACommandPrintsThatCommandsHelp() {
    CliRun help = CliRun.of("help", "deploy");
    CliRun direct = CliRun.of("deploy", "--help");

    assertThat(help.exitCode()).as(help.toString()).isZero();
    assertThat(help.out()).startsWith("Usage: livegate deploy ").isEqualTo(direct.out());
    assertThat(CliRun.of("help").out()).contains("  help     ").contains("  status   ");
  }

  @Test
  void everyCommandsHelpEndsWithExamplesOfThatCommand() {
    CommandLine root = new CommandLine(new Livegate(java.util.Map.of()));
    assertThat(helpOf(root)).contains("\nExamples:\n  livegate demo\n");
    for (CommandLine command : root.getSubcommands().values()) {
      if (command.getCommandName().equals("help")) {
        continue;
      }
      assertThat(helpOf(command))
          .as(command.getCommandName())
          .containsPattern(
              "\nExamples:\n(  .*\n)*  (\\S+=\\S+ )?livegate " + command.getCommandName());
      for (CommandLine sub : command.getSubcommands().values()) {
        assertThat(helpOf(sub))
            .as(sub.getCommandSpec().qualifiedName())
            .contains("\nExamples:\n  " + sub.getCommandSpec().qualifiedName() + " ");
      }
    }
  }

  @Test
  void theDurationOptionsSayTheShortForm() {
    assertThat(CliRun.of("deploy", "--help").out().replaceAll("\\s+", " "))
        .contains("How long a vote may take before the unit counts as rejected: 90s, 15m, 1h, 3d")
        .contains("(default: 24h)")
        .contains("(default: 60s)");
  }

  @Test
  void statusOfAStateDirectoryThatIsNotThereIsAnErrorAndCreatesNothing() {
    Path missing = dir.resolve("no-such-state");

    CliRun run = CliRun.of("status", "--state-dir", missing.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(run.err())
        .isEqualTo(
            "livegate: there is no livegate state directory at "
                + missing
                + " (no metadb in it); livegate deploy and demo make one\n");
    assertThat(missing).doesNotExist();
  }

  @Test
  void resumeOfAStateDirectoryThatIsNotThereIsAnErrorNotNothingToResume() {
    Path missing = dir.resolve("no-such-state");

    CliRun run =
        CliRun.withPath("resume", "--state-dir", missing.toString(), "--runner", "terraform");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(run.out()).doesNotContain("nothing to resume");
    assertThat(run.err())
        .isEqualTo(
            "livegate: there is no livegate state directory at "
                + missing
                + " (no metadb in it); livegate deploy and demo make one\n");
    assertThat(missing).doesNotExist();
  }

  private static String helpOf(CommandLine command) {
    return command.getUsageMessage(CommandLine.Help.Ansi.OFF);
  }
}
