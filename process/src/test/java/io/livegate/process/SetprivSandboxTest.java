package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Sandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Changing owners needs root: the tests run as root here, as the tasks' Java does in the image. */
class SetprivSandboxTest {
  private static final int USER = SetprivSandbox.IMAGE_USER;

  @TempDir Path dir;

  @Test
  void theCommandRunsAsTheUserWhoOwnsTheRepositoryHomeAndThePlanItWrites() throws Exception {
    Path repository = Files.createDirectories(dir.resolve("repository/app/a"));
    Path plan = Files.createFile(dir.resolve("plan.tfplan"));
    SetprivSandbox sandbox = new SetprivSandbox(USER, USER, dir.resolve("home"));

    List<String> argv =
        sandbox.wrap(
            List.of("terraform", "plan"),
            dir.resolve("repository"),
            Optional.of(new Sandbox.PlanFile(plan, true)));

    assertThat(argv)
        .containsExactly(
            "setpriv",
            "--reuid=" + USER,
            "--regid=" + USER,
            "--clear-groups",
            "--",
            "terraform",
            "plan");
    assertThat(Files.getAttribute(repository, "unix:uid")).isEqualTo(USER);
    assertThat(Files.getAttribute(dir.resolve("home"), "unix:uid")).isEqualTo(USER);
    assertThat(Files.getAttribute(plan, "unix:uid")).isEqualTo(USER);
  }

  @Test
  void aPlanTheCommandOnlyReadsStaysRootsAndReadableByTheUsersGroup() throws Exception {
    Files.createDirectories(dir.resolve("repository"));
    Path plan = Files.writeString(dir.resolve("plan.tfplan"), "approved");

    new SetprivSandbox(USER, USER, dir.resolve("home"))
        .wrap(
            List.of("terraform", "show"),
            dir.resolve("repository"),
            Optional.of(new Sandbox.PlanFile(plan, false)));

    assertThat(Files.getAttribute(plan, "unix:uid")).isEqualTo(0);
    assertThat(Files.getAttribute(plan, "unix:gid")).isEqualTo(USER);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(plan)))
        .isEqualTo("rw-r-----");
  }

  @Test
  void aPlanFileTheUserWritesInAPrivateDirectoryCanBeReachedButTheDirectoryNotListed()
      throws Exception {
    Files.createDirectories(dir.resolve("repository"));
    Path plans =
        Files.createDirectory(
            dir.resolve("drift-plans"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path plan = Files.createFile(plans.resolve("0.tfplan"));

    new SetprivSandbox(USER, USER, dir.resolve("home"))
        .wrap(
            List.of("terraform", "plan"),
            dir.resolve("repository"),
            Optional.of(new Sandbox.PlanFile(plan, true)));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(plans)))
        .isEqualTo("rwx-----x");
    assertThat(Files.getAttribute(plans, "unix:uid")).isEqualTo(0);
    assertThat(Files.getAttribute(plan, "unix:uid")).isEqualTo(USER);
  }

  @Test
  void rootIsRefusedAsTheUserTerraformRunsAs() {
    assertThatThrownBy(() -> new SetprivSandbox(0, 0, dir))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("root");
  }
}
