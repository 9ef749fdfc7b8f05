package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Sandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Runs terraform and terragrunt as an unprivileged user of the ECS tasks' image, while the task's
 * Java stays root: each argv becomes {@code setpriv --reuid=UID --regid=GID --clear-groups
 * --no-new-privs --bounding-set -all --inh-caps -all -- argv} (util-linux), so that nothing it runs
 * can gain a capability back (a setuid or file-capability program). Another user cannot read the
 * Java process's {@code /proc/PID/environ} (the container credentials' URI and token, the task
 * token, the metadb settings) nor its memory, and cannot read what root keeps owner-only: the other
 * plan files.
 *
 * <p>Before each command, every process of the user that no running command of this JVM owns (what
 * an earlier command left behind) is killed, and the repository (the checkout, where terraform
 * writes the units' {@code .terraform} directories) and the user's home are given to the user. The
 * plan file a plan writes is the user's; a plan file a command only reads stays root's, readable by
 * the user's group, so the code being deployed cannot change an approved plan between its check and
 * its apply. The directories above them must be traversable by others (the tasks' workspace is made
 * 0755 by default); the directory of a plan file the user writes is made so (o+x, never readable),
 * as a private directory of drift's plans ({@code PrivateTemp}) is not.
 */
public final class SetprivSandbox implements Sandbox {
  /** The image's user (ecs-tasks/Dockerfile: {@code useradd --uid 10001 livegate}). */
  public static final int IMAGE_USER = 10001;

  /** How often {@link #endLeftovers} kills what a command left before it gives up. */
  private static final int LEFTOVER_ROUNDS = 50;

  private final int uid;
  private final int gid;
  private final Path home;

  /**
   * @param home the user's home, the {@code HOME} its commands must get: created, and given to the
   *     user, before the first command
   */
  public SetprivSandbox(int uid, int gid, Path home) {
    if (uid == 0) {
      throw new LivegateException("terraform must not run as root (uid 0)");
    }
    this.uid = uid;
    this.gid = gid;
    this.home = home.toAbsolutePath().normalize();
  }

  /** The user's home: what {@code HOME} must say in the commands' environment. */
  public Path home() {
    return home;
  }

  @Override
  public List<String> wrap(List<String> argv, Path repositoryRoot, Optional<PlanFile> planFile) {
    try {
      endLeftovers();
      Files.createDirectories(home);
      giveTree(home);
      giveTree(repositoryRoot.toAbsolutePath().normalize());
      if (planFile.isPresent()) {
        Path plan = planFile.get().path();
        if (planFile.get().writable()) {
          Path directory = plan.toAbsolutePath().getParent();
          Set<PosixFilePermission> passable =
              EnumSet.copyOf(Files.getPosixFilePermissions(directory));
          passable.add(PosixFilePermission.OTHERS_EXECUTE);
          Files.setPosixFilePermissions(directory, passable);
          give(plan);
          Files.setPosixFilePermissions(plan, PosixFilePermissions.fromString("rw-------"));
        } else if (Files.exists(plan)) {
          Files.setAttribute(plan, "unix:uid", 0, LinkOption.NOFOLLOW_LINKS);
          Files.setAttribute(plan, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
          Files.setPosixFilePermissions(plan, PosixFilePermissions.fromString("rw-r-----"));
        }
      }
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      throw new LivegateException(
          "cannot hand "
              + repositoryRoot
              + " to uid "
              + uid
              + " (the task must run as root to drop to it): "
              + e.getMessage(),
          e);
    }
    List<String> wrapped =
        new ArrayList<>(
            List.of(
                "setpriv",
                "--reuid=" + uid,
                "--regid=" + gid,
                "--clear-groups",
                "--no-new-privs",
                "--bounding-set",
                "-all",
                "--inh-caps",
                "-all",
                "--"));
    wrapped.addAll(argv);
    return wrapped;
  }

  /** Every command runs as the same user, which may read its fellows' {@code /proc/PID/environ}. */
  @Override
  public boolean concurrentCommandsSeeEachOther() {
    return true;
  }

  @Override
  public String description() {
    return "terraform runs as uid " + uid + " (setpriv), away from the task's credentials";
  }

  /**
   * Kills every process of the user that no command of this JVM is running: what a provider left
   * behind (a daemon, a double fork), which would otherwise watch the next command, read its
   * environment (another account's session) or race {@link #giveTree}. A process that forks as fast
   * as it is killed is killed again, until none is left; if that does not end, nothing runs.
   */
  private void endLeftovers() throws IOException {
    Set<Long> running = new HashSet<>();
    ProcessHandle.current().descendants().forEach(process -> running.add(process.pid()));
    // While another command of this JVM runs (the plan scan and drift plan one account's units at
    // once), the processes it forks after the look above cannot be told from leftovers, and were
    // killed mid-plan: leftovers are ended before the next command that runs alone (each
    // account's first in a scan, every command of a terra-run task).
    for (long pid : running) {
      if (ownedByUser(Path.of("/proc", Long.toString(pid)))) {
        return;
      }
    }
    for (int round = 0; round < LEFTOVER_ROUNDS; round++) {
      List<ProcessHandle> leftovers = new ArrayList<>();
      try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
        for (Path entry : (Iterable<Path>) entries::iterator) {
          String name = entry.getFileName().toString();
          if (name.chars().allMatch(Character::isDigit)
              && !running.contains(Long.parseLong(name))
              && ownedByUser(entry)) {
            ProcessHandle.of(Long.parseLong(name)).ifPresent(leftovers::add);
          }
        }
      }
      if (leftovers.isEmpty()) {
        return;
      }
      leftovers.forEach(ProcessHandle::destroyForcibly);
      for (ProcessHandle leftover : leftovers) {
        leftover.onExit().join();
      }
    }
    throw new IOException(
        "processes of uid " + uid + " left by an earlier command keep coming back");
  }

  /**
   * Whether the process of {@code /proc/PID} has the user's real, effective or saved uid and still
   * runs (a zombie, waiting for its parent to reap it, runs nothing).
   */
  private boolean ownedByUser(Path process) {
    try {
      boolean zombie = false;
      for (String line : Files.readAllLines(process.resolve("status"))) {
        if (line.startsWith("State:")) {
          zombie = line.substring(6).trim().startsWith("Z");
        } else if (line.startsWith("Uid:")) {
          String[] ids = line.substring(4).trim().split("\\s+");
          for (int index = 0; index < 3 && index < ids.length; index++) {
            if (Integer.parseInt(ids[index]) == uid) {
              return !zombie;
            }
          }
          return false;
        }
      }
    } catch (IOException e) {
      // the process ended while it was looked at
    }
    return false;
  }

  /**
   * Gives {@code root} and everything under it to the user with coreutils' {@code chown -R -P},
   * never a walk in Java: a concurrent command of the same user (the plan scan's units of one
   * account) could swap a directory for a symbolic link between a Java walk's check and its
   * descent, and have root hand it a file outside the tree. {@code chown} descends with {@code
   * openat} and {@code O_NOFOLLOW} from the directory it checked and changes entries with {@code
   * fchownat} and {@code AT_SYMLINK_NOFOLLOW}, so a swap makes it fail, never follow; then nothing
   * runs.
   */
  private void giveTree(Path root) throws IOException {
    List<String> argv =
        List.of("chown", "-R", "-P", "--", uid + ":" + gid, root.toAbsolutePath().toString());
    Process chown = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String output = new String(chown.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (chown.waitFor() != 0) {
        throw new IOException("chown -R of " + root + " failed: " + output.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while giving " + root + " to uid " + uid, e);
    }
  }

  private void give(Path path) throws IOException {
    Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
    Files.setAttribute(path, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
  }
}
