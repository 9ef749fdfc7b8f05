package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What of an apply's throwaway workspace goes back to the checkout: the unit's local state, which
 * terraform's local backend keeps in the unit's directory ({@code terraform.tfstate}, its {@code
 * .backup}, {@code terraform.tfstate.d/} for other workspaces, or any {@code *.tfstate} a backend's
 * {@code path} names there). Nothing else crosses: no other file of the unit, nothing outside its
 * directory, nothing of a unit nested in it, no link (only regular files), and nothing whose place
 * in the checkout resolves outside the unit's directory there (a committed link to elsewhere). Each
 * file is renamed into place, so a copy made for another unit meanwhile reads a whole one.
 */
final class UnitLocalState {
  private static final Set<String> NOT_STATE = Set.of(".terraform", ".terragrunt-cache", ".git");
  private static final Set<String> UNIT_CONFIGS = Set.of("terragrunt.hcl", "terragrunt.stack.hcl");
  private static final String WORKSPACES_DIRECTORY = "terraform.tfstate.d";

  private UnitLocalState() {}

  /**
   * Copies {@code unit}'s state files that differ from the checkout's from {@code workspace} to
   * {@code checkout}.
   *
   * @throws LivegateException naming the workspace, which then stays where it is, when a file could
   *     not be kept
   */
  static void keep(Path workspace, Path checkout, String unit) {
    Path from = workspace.resolve(unit);
    Path to = checkout.resolve(unit);
    if (!Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      for (Path file : stateFiles(from)) {
        Path target = to.resolve(from.relativize(file).toString());
        if (!Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
            || Files.mismatch(file, target) != -1) {
          Files.createDirectories(target.getParent());
          Path unitDirectory = to.toRealPath();
          if (!target.getParent().toRealPath().startsWith(unitDirectory)) {
            throw new IOException(
                target + " is outside " + unitDirectory + " (a link in the checkout leads away)");
          }
          Path partial = target.resolveSibling("." + target.getFileName() + ".livegate-partial");
          Files.copy(file, partial, StandardCopyOption.REPLACE_EXISTING);
          Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        }
      }
    } catch (IOException e) {
      throw new LivegateException(
          "cannot keep the local state of "
              + unit
              + " in "
              + to
              + ": "
              + e
              + "; the apply's state stays in "
              + workspace.resolve(unit),
          e);
    }
  }

  private static List<Path> stateFiles(Path unitDirectory) throws IOException {
    List<Path> found = new ArrayList<>();
    Files.walkFileTree(
        unitDirectory,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
            if (dir.equals(unitDirectory)) {
              return FileVisitResult.CONTINUE;
            }
            boolean nestedUnit =
                UNIT_CONFIGS.stream().anyMatch(config -> Files.exists(dir.resolve(config)));
            return nestedUnit || NOT_STATE.contains(dir.getFileName().toString())
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            String name = file.getFileName().toString();
            boolean state =
                name.endsWith(".tfstate")
                    || name.endsWith(".tfstate.backup")
                    || unitDirectory.relativize(file).startsWith(WORKSPACES_DIRECTORY);
            if (state && attributes.isRegularFile()) {
              found.add(file);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return found;
  }
}
