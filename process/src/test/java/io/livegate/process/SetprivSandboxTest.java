package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.Sandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Changing owners needs root: the tests run as root here, as the tasks' Java does in the image. */
@ExtendWith(SandboxUserLock.class)
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
            "--no-new-privs",
            "--bounding-set",
            "-all",
            "--inh-caps",
            "-all",
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
  void aProcessLeftBehindSwappingADirectoryForALinkGainsNothingOutsideTheRepository()
      throws Exception {
    // a uid of its own: killing what it leaves must not touch other tests' sandbox users
    int user = 10077;
    // the user must reach the repository in the test's private temporary directory
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Path secret = Files.writeString(outside.resolve("secret"), "root's");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    Path repository = dir.resolve("repository");
    Files.createDirectories(repository.resolve("app/.terraform"));
    Path pidFile = repository.resolve("swapper.pid");
    SetprivSandbox sandbox = new SetprivSandbox(user, user, dir.resolve("home"));
    // swaps app/.terraform and a link to outside (renameat2 RENAME_EXCHANGE), as fast as it can
    String swapper =
        "import ctypes, os, sys\n"
            + "libc = ctypes.CDLL(None)\n"
            + "os.chdir(sys.argv[1])\n"
            + "os.symlink(sys.argv[3], 'link')\n"
            + "open(sys.argv[2], 'w').write(str(os.getpid()))\n"
            + "while True:\n"
            + "    libc.renameat2(-100, b'.terraform', -100, b'link', 2)\n";
    // the command ends once the swapper it leaves behind has started
    List<String> leaveItBehind =
        List.of(
            "sh",
            "-c",
            "setsid -f /usr/bin/python3 -c \"$0\" \"$1\" \"$2\" \"$3\" </dev/null >/dev/null 2>&1;"
                + " while [ ! -s \"$2\" ]; do sleep 0.01; done",
            swapper,
            repository.resolve("app").toString(),
            pidFile.toString(),
            outside.toString());
    CommandResult first =
        new ProcessCommandRunner()
            .run(
                new Command(
                    sandbox.wrap(leaveItBehind, repository, Optional.empty()),
                    repository,
                    Map.of(),
                    Duration.ofSeconds(60)));
    assertThat(first.exitCode()).as(first.output()).isZero();
    long swapperPid = Long.parseLong(Files.readString(pidFile).strip());
    boolean aliveBefore = ProcessHandle.of(swapperPid).map(ProcessHandle::isAlive).orElse(false);

    int commands = 0;
    String failure = null;
    while (commands < 2000 && Files.getAttribute(secret, "unix:uid").equals(0)) {
      commands++;
      try {
        sandbox.wrap(List.of("terraform", "plan"), repository, Optional.empty());
      } catch (LivegateException e) {
        failure = e.getMessage();
      }
    }

    Object owner = Files.getAttribute(secret, "unix:uid");
    boolean aliveAfter = ProcessHandle.of(swapperPid).map(ProcessHandle::isAlive).orElse(false);
    System.out.println(
        "the swapper (pid "
            + swapperPid
            + ") was alive before the next command: "
            + aliveBefore
            + ", after it: "
            + aliveAfter
            + "; after "
            + commands
            + " commands the file outside belongs to uid "
            + owner
            + (failure == null ? "" : "; a command was refused: " + failure));
    ProcessHandle.of(swapperPid).ifPresent(ProcessHandle::destroyForcibly);
    assertThat(aliveBefore).as("the swapper outlived the command that started it").isTrue();
    assertThat(owner).as("the owner of the file outside the repository").isEqualTo(0);
    assertThat(aliveAfter).as("the swapper outlived the next command").isFalse();
  }

  @Test
  void rootIsRefusedAsTheUserTerraformRunsAs() {
    assertThatThrownBy(() -> new SetprivSandbox(0, 0, dir))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("root");
  }
}
