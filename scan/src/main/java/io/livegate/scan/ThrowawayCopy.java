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
 * other command's sandbox.
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
    Path source = checkout.toAbsolutePath().normalize();
    Path copy = PrivateTemp.directory("unit-");
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
                // another unit's command running in the checkout removed it while this copy was
                // made (terraform's .terraform.tfstate.lock.info): it was never this unit's
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
    return new ThrowawayCopy(copy);
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
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // left to the JVM's exit, as above
    }
  }
}
