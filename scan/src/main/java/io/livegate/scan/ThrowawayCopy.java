package io.livegate.scan;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.PrivateTemp;
import io.livegate.core.unit.Workspaces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A fresh copy of a checkout for one unit command, deleted when closed: what the unit's code writes
 * (a file planted in another unit's directory, a sibling account's or the repository root) stays in
 * its copy, so no other unit and no later command sees it. It copies the files as they are checked
 * out, with untracked ones such as local state, never following a symbolic link. terraform's and
 * terragrunt's caches stay behind (each command initialises its copy), and so does git's directory:
 * the copy's {@code .git} is a file naming the checkout's, which the sandbox shows read-only, so
 * {@code get_repo_root()} and its kin answer the copy's root and nothing is written to the
 * checkout. The copy is one of livegate's private directories ({@link PrivateTemp}), out of every
 * other command's sandbox, or for a command that must be resumable a directory its caller names
 * ({@link #resumable}), which the sandbox keeps read-only to every other command.
 */
public final class ThrowawayCopy implements Workspaces.Workspace {
  private static final Set<String> LEFT_BEHIND = Set.of(".terraform", ".terragrunt-cache");
  private static final String GIT = ".git";

  private final Path root;

  private ThrowawayCopy(Path root) {
    this.root = root;
  }

  /** A copy of {@code checkout}. */
  public static ThrowawayCopy of(Path checkout) {
    Path copy = PrivateTemp.directory("unit-");
    copyInto(checkout.toAbsolutePath().normalize(), copy);
    return new ThrowawayCopy(copy);
  }

  /**
   * The copy of {@code checkout} at {@code at}: the one already there, which a command that
   * livegate's death interrupted left (an apply that outlived livegate goes on writing its state
   * there), or else a new one. A new copy is made beside {@code at} and renamed to it, so that a
   * copy is whole or absent, whenever livegate dies.
   */
  public static ThrowawayCopy resumable(Path checkout, Path at) {
    Path target = at.toAbsolutePath().normalize();
    if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
      return new ThrowawayCopy(target);
    }
    Path partial = target.resolveSibling(target.getFileName() + ".partial");
    delete(partial);
    try {
      Files.createDirectories(partial);
      copyInto(checkout.toAbsolutePath().normalize(), partial);
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      delete(partial);
      throw new LivegateException(
          "cannot copy " + checkout + " to " + target + " for a unit command: " + e.getMessage(),
          e);
    }
    return new ThrowawayCopy(target);
  }

  private static void copyInto(Path source, Path copy) {
    try {
      Files.walkFileTree(
          source,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes)
                throws IOException {
              if (dir.equals(source.resolve(GIT))) {
                Files.writeString(copy.resolve(GIT), "gitdir: " + dir + "\n");
                return FileVisitResult.SKIP_SUBTREE;
              }
              if (!dir.equals(source) && LEFT_BEHIND.contains(dir.getFileName().toString())) {
                return FileVisitResult.SKIP_SUBTREE;
              }
              Files.createDirectories(copy.resolve(source.relativize(dir).toString()));
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              try {
                Files.copy(
                    file,
                    copy.resolve(source.relativize(file).toString()),
                    LinkOption.NOFOLLOW_LINKS,
                    StandardCopyOption.COPY_ATTRIBUTES);
              } catch (NoSuchFileException gone) {
                // gone while this copy was made: a command running in the checkout removed it
                // (terraform's .terraform.tfstate.lock.info), or livegate renamed a unit's state
                // into place; either way it was never this unit's
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException failure)
                throws IOException {
              if (failure instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // gone between the listing and the visit, as above
              }
              throw failure;
            }
          });
    } catch (IOException e) {
      delete(copy);
      throw new LivegateException(
          "cannot copy " + source + " for a unit command: " + e.getMessage(), e);
    }
  }

  @Override
  public Path root() {
    return root;
  }

  /**
   * Deletes the copy. What the unit's code made undeletable (a directory without write permission)
   * is left: it is in this JVM's private directory, which no other command sees and which goes at
   * the JVM's exit; the command's answer is not lost over it.
   */
  @Override
  public void close() {
    delete(root);
  }

  private static void delete(Path directory) {
    if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // left to the JVM's exit, as above
    }
  }
}
