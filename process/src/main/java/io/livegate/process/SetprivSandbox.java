package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Sandbox;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs terraform and terragrunt as an unprivileged user of the ECS tasks' image, while the task's
 * Java stays root: each argv becomes {@code setpriv --reuid=UID --regid=GID --clear-groups -- argv}
 * (util-linux). Another user cannot read the Java process's {@code /proc/PID/environ} (the
 * container credentials' URI and token, the task token, the metadb settings) nor its memory, and
 * cannot read what root keeps owner-only: the other plan files.
 *
 * <p>Before each command the repository (the checkout, where terraform writes the units' {@code
 * .terraform} directories) and the user's home are given to the user. The plan file a plan writes
 * is the user's; a plan file a command only reads stays root's, readable by the user's group, so
 * the code being deployed cannot change an approved plan between its check and its apply. The
 * directories above them must be traversable by others (the tasks' workspace is made 0755 by
 * default); the directory of a plan file the user writes is made so (o+x, never readable), as a
 * private directory of drift's plans ({@code PrivateTemp}) is not.
 */
public final class SetprivSandbox implements Sandbox {
  /** The image's user (ecs-tasks/Dockerfile: {@code useradd --uid 10001 livegate}). */
  public static final int IMAGE_USER = 10001;

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
            List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--"));
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

  private void giveTree(Path root) throws IOException {
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes)
              throws IOException {
            give(dir);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
              throws IOException {
            give(file);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  private void give(Path path) throws IOException {
    Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
    Files.setAttribute(path, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
  }
}
