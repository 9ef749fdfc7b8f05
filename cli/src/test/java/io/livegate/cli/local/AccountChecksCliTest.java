package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.cli.CliRun;
import io.livegate.cli.Livegate;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An accounts file that would deploy nothing, or wait for a vote that can never pass, is refused
 * before the deployment is recorded, so the merge is not used up.
 */
class AccountChecksCliTest {
  @TempDir Path dir;

  @Test
  void anAccountPathThatHoldsNoUnitIsRefusedBeforeAnythingIsRecorded() throws Exception {
    assertThat(refusedDeploy("account \"dev\" {\n  path = \"dev-acount\"\n}\n"))
        .matches(
            "livegate: account \"dev\": path 'dev-acount' holds no unit \\(no terragrunt.hcl under"
                + " it\\) at HEAD \\([0-9a-f]{12}\\) nor at HEAD~1 \\([0-9a-f]{12}\\); units are"
                + " under: dev-account\n");
  }

  @Test
  void aThresholdTheVotersCannotReachIsRefusedBeforeAnythingIsRecorded() throws Exception {
    assertThat(
            refusedDeploy(
                "account \"dev\" {\n  path = \"dev-account\"\n  voters = [\"lead@example.com\"]\n"
                    + "  min_approvals = 2\n}\n"))
        .isEqualTo(
            "livegate: account \"dev\": min_approvals = 2 and min_rejections = 1 but 1 voter"
                + " (lead@example.com), so no vote could ever be decided\n");
  }

  @Test
  void overlappingAccountPathsAreRefusedBeforeAnythingIsRecorded() throws Exception {
    assertThat(
            refusedDeploy(
                "account \"all\" {\n  path = \"\"\n}\n"
                    + "account \"dev\" {\n  path = \"dev-account\"\n}\n"))
        .isEqualTo(
            "livegate: "
                + dir.resolve("livegate.hcl")
                + ": account \"dev\" (path 'dev-account') lies inside account \"all\" (path '',"
                + " the whole repository): a unit under 'dev-account' would belong to both. Give"
                + " each account a path of its own (move \"all\" to sibling directories of"
                + " 'dev-account')\n");
  }

  /**
   * Deploys the example change with {@code accountsFile}; asserts it failed and recorded nothing.
   */
  private String refusedDeploy(String accountsFile) throws Exception {
    Path state = dir.resolve("state");
    TestRepo repo = LiveRepos.devAccountChange(dir.resolve("live"));
    Path accounts = Files.writeString(dir.resolve("livegate.hcl"), accountsFile);

    CliRun run = CliRun.autoApprovedDeploy(repo.root(), state, "--accounts", accounts.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(Recorded.in(state).deployments()).isEmpty();
    return run.err();
  }
}
