package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What of an apply's copy goes back to the checkout: the unit's own state files, and nothing its
 * code could use to reach another unit, a later command or a file outside the checkout.
 */
class UnitLocalStateTest {
  private static final String UNIT = "dev/a";

  @TempDir Path dir;

  @Test
  void onlyTheUnitsOwnStateFilesGoBackToTheCheckout() throws IOException {
    Path workspace = dir.resolve("workspace");
    Path checkout = dir.resolve("checkout");
    Files.createDirectories(checkout.resolve(UNIT));
    write(workspace, UNIT + "/terraform.tfstate", "state");
    write(workspace, UNIT + "/terraform.tfstate.backup", "backup");
    write(workspace, UNIT + "/terraform.tfstate.d/staging/terraform.tfstate", "staging");
    write(workspace, UNIT + "/planted.tf", "resource");
    write(workspace, UNIT + "/.terraform/terraform.tfstate", "backend config");
    write(workspace, UNIT + "/nested/terragrunt.hcl", "inputs = {}");
    write(workspace, UNIT + "/nested/terraform.tfstate", "a nested unit's");
    write(workspace, "prod/b/terraform.tfstate", "another unit's");
    Files.createSymbolicLink(
        workspace.resolve(UNIT).resolve("linked.tfstate"), dir.resolve("elsewhere"));

    UnitLocalState.keep(workspace, checkout, UNIT);

    assertThat(checkout.resolve(UNIT + "/terraform.tfstate")).hasContent("state");
    assertThat(checkout.resolve(UNIT + "/terraform.tfstate.backup")).hasContent("backup");
    assertThat(checkout.resolve(UNIT + "/terraform.tfstate.d/staging/terraform.tfstate"))
        .hasContent("staging");
    for (String left :
        new String[] {
          UNIT + "/planted.tf",
          UNIT + "/.terraform",
          UNIT + "/nested",
          UNIT + "/linked.tfstate",
          "prod"
        }) {
      assertThat(checkout.resolve(left)).as(left).doesNotExist();
    }
  }

  @Test
  void aStateFileWhosePlaceInTheCheckoutLeadsOutOfTheUnitIsRefusedNamingWhereTheStateStays()
      throws IOException {
    Path workspace = dir.resolve("workspace");
    Path checkout = dir.resolve("checkout");
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.createDirectories(checkout.resolve(UNIT));
    Files.createSymbolicLink(checkout.resolve(UNIT).resolve("states"), outside);
    write(workspace, UNIT + "/states/terraform.tfstate", "state");

    assertThatThrownBy(() -> UnitLocalState.keep(workspace, checkout, UNIT))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("cannot keep the local state of " + UNIT)
        .hasMessageContaining("leads away")
        .hasMessageContaining("the apply's state stays in " + workspace.resolve(UNIT));
    try (var written = Files.list(outside)) {
      assertThat(written).isEmpty();
    }
  }

  private static void write(Path root, String path, String content) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }
}
