package io.livegate.core.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every terragrunt command line livegate runs, held against the flags of the terragrunt version the
 * image pins (kept as data in {@code terragrunt/flags-v1.1.3.txt}, with its source). A flag that
 * terragrunt renamed or removed, like {@code --terragrunt-working-dir} in the 1.x CLI, fails here
 * rather than in a user's first deployment.
 */
class TerragruntArgvContractTest {
  static final String PINNED_VERSION = "1.1.3";
  private static final String ROLE = "arn:aws:iam::111111111111:role/livegate-plan";
  private static final String UNIT = "dev-account/us-west-2/app";

  /** What terragrunt 1.1.3 accepts before {@code --}: each flag with whether it takes a value. */
  private final Map<String, Boolean> takesValue = flags();

  @Test
  void everyTerragruntCommandLivegateRunsUsesOnlyFlagsOfThePinnedVersion() {
    for (List<String> argv : everyCommand()) {
      assertThat(violations(argv)).as(String.join(" ", argv)).isEmpty();
    }
  }

  @Test
  void theRemovedTerragruntPrefixedFlagsAreRefusedByTheContract() {
    List<String> old = List.of("terragrunt", "run", "--terragrunt-working-dir", UNIT, "--", "plan");

    assertThat(violations(old))
        .first()
        .isEqualTo("--terragrunt-working-dir is not a flag of terragrunt " + PINNED_VERSION);
  }

  @Test
  void plansTakeNoStateLockAndCarryThePlanRoleWhileApplyCarriesTheApplyRole() {
    RunnerArgv runner = RunnerArgv.TERRAGRUNT;
    List<String> plan = runner.planCommands(UNIT, ROLE, List.of()).get(0);
    List<String> scan = runner.planScanCommands(UNIT, ROLE).get(0);
    List<String> apply = runner.applyCommands(UNIT, "arn:aws:iam::1:role/apply").get(0);

    assertThat(plan)
        .containsExactly(
            "terragrunt",
            "run",
            "--working-dir",
            UNIT,
            "--non-interactive",
            "--log-disable",
            "--iam-assume-role",
            ROLE,
            "--",
            "plan",
            "-out=" + RunnerArgv.PLAN_FILE,
            "-input=false",
            "-no-color",
            "-lock=false");
    assertThat(terraformPart(scan)).contains("-lock=false").startsWith("plan");
    assertThat(terraformPart(apply)).doesNotContain("-lock=false");
    assertThat(apply).containsSequence("--iam-assume-role", "arn:aws:iam::1:role/apply");
  }

  /** Each terragrunt command line that RunnerArgv builds, with and without a role. */
  private static List<List<String>> everyCommand() {
    RunnerArgv runner = RunnerArgv.TERRAGRUNT;
    List<List<String>> commands = new ArrayList<>();
    for (String role : new String[] {ROLE, null}) {
      commands.addAll(runner.planScanCommands(UNIT, role));
      commands.addAll(runner.planCommands(UNIT, role, List.of()));
      commands.addAll(runner.planCommands(UNIT, role, List.of("terraform_data.a", "aws_s3.b")));
      commands.addAll(runner.applyCommands(UNIT, role));
      commands.add(runner.showCommand(UNIT, role, List.of("-json", RunnerArgv.PLAN_FILE)));
      commands.add(runner.showCommand(UNIT, role, List.of("-json")));
      commands.add(runner.forceUnlockCommand(UNIT, role, "144de0c6-2916-4610-6ebe-b1d7b3e1d6ea"));
    }
    return commands;
  }

  /** What is wrong with {@code argv} under the pinned flags; empty when nothing. */
  private List<String> violations(List<String> argv) {
    List<String> wrong = new ArrayList<>();
    if (argv.size() < 2 || !argv.get(0).equals("terragrunt") || !argv.get(1).equals("run")) {
      wrong.add("does not start with 'terragrunt run'");
      return wrong;
    }
    int index = 2;
    while (index < argv.size() && !argv.get(index).equals("--")) {
      String argument = argv.get(index);
      String name = argument.startsWith("--") ? argument.substring(2) : null;
      if (name == null || !takesValue.containsKey(name)) {
        wrong.add(argument + " is not a flag of terragrunt " + PINNED_VERSION);
        index++;
      } else if (takesValue.get(name)) {
        if (index + 1 >= argv.size() || argv.get(index + 1).equals("--")) {
          wrong.add(argument + " needs a value");
        }
        index += 2;
      } else {
        index++;
      }
    }
    if (index >= argv.size() - 1) {
      wrong.add("has no terraform command after --");
    } else if (!List.of("plan", "apply", "show", "force-unlock").contains(argv.get(index + 1))) {
      wrong.add(argv.get(index + 1) + " is not a terraform command livegate runs");
    }
    return wrong;
  }

  private static List<String> terraformPart(List<String> argv) {
    return argv.subList(argv.indexOf("--") + 1, argv.size());
  }

  private static Map<String, Boolean> flags() {
    String resource = "/terragrunt/flags-v" + PINNED_VERSION + ".txt";
    try (InputStream in = TerragruntArgvContractTest.class.getResourceAsStream(resource)) {
      Map<String, Boolean> flags = new HashMap<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] fields = line.trim().split(" ");
        flags.put(fields[1], fields[2].equals("value"));
      }
      return flags;
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }
}
