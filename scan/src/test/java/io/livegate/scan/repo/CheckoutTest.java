package io.livegate.scan.repo;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.scan.testing.TestRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A workspace checked out at any commit of the repository, whatever its branch head is. */
class CheckoutTest {
  @TempDir Path dir;

  @Test
  void aCommitOlderThanTheBranchHeadIsCheckedOutAfterAFreshCloneAndTheWorkspaceFollowsLater()
      throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("app/main.tf", "first\n");
    String first = repo.commit("first");
    repo.write("app/main.tf", "second\n");
    String second = repo.commit("second");
    Checkout checkout = new Checkout(repo.root().toString(), Optional.empty());
    Path workspace = dir.resolve("workspace");

    checkout.at(workspace, first);
    assertThat(Files.readString(workspace.resolve("app/main.tf"))).isEqualTo("first\n");

    checkout.at(workspace, second);
    assertThat(Files.readString(workspace.resolve("app/main.tf"))).isEqualTo("second\n");
  }
}
