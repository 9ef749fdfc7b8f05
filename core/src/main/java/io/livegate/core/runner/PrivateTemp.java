package io.livegate.core.runner;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where livegate keeps its own temporary files (a command's output, drift's plan files): one
 * directory per JVM in the system's temporary directory, made on first use and removed when the JVM
 * exits, never {@code /tmp} itself. The code being deployed shares {@code /tmp} with livegate
 * (local backends and provisioners write there), so this directory is out of its reach in every
 * {@link Sandbox}: bubblewrap mounts an empty file system over it, and the ECS tasks' unprivileged
 * user cannot list it (it is the JVM user's, mode 0711) nor enter the directories in it (0700). A
 * plan file that a sandboxed command must write is handed to it by its sandbox.
 */
public final class PrivateTemp {
  private PrivateTemp() {}

  /** The directory, made when first asked for. */
  public static Path root() {
    return Root.PATH;
  }

  /**
   * A new directory of livegate's in {@link #root}, which only the JVM's user can read or enter
   * (0700).
   *
   * @param prefix the start of its name, e.g. {@code run-}
   */
  public static Path directory(String prefix) {
    try {
      return Files.createTempDirectory(
          Root.PATH,
          prefix,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException e) {
      throw new LivegateException(
          "cannot create a private directory in " + Root.PATH + ": " + e.getMessage(), e);
    }
  }

  /** Holds the directory: made once, by the first thread that asks, removed at the JVM's exit. */
  private static final class Root {
    static final Path PATH = create();

    private static Path create() {
      Path root;
      try {
        root =
            Files.createTempDirectory(
                "livegate-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        // others may pass through to a file their sandbox hands them by path, never list it
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
      } catch (IOException e) {
        throw new LivegateException(
            "cannot create livegate's private temporary directory: " + e.getMessage(), e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(root), "livegate-private-temp"));
      return root;
    }

    private static void delete(Path root) {
      try (Stream<Path> paths = Files.walk(root)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException e) {
        // the JVM is exiting; what is left is the JVM user's alone, in the system's temp directory
      }
    }
  }
}
