package io.livegate.core.runner;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Where livegate keeps its own temporary files (a command's output, drift's plan files), never in
 * {@code /tmp} itself: the code being deployed shares {@code /tmp} with livegate (local backends
 * and provisioners write there). Every livegate process of a user keeps them in a directory of its
 * own ({@link #root}, removed when the JVM exits) inside that user's {@link #base}, {@code
 * /tmp/livegate-USER}; every {@link Sandbox} keeps the base out of reach: bubblewrap mounts an
 * empty file system over it, and the ECS tasks' unprivileged user cannot list it (the JVM user's,
 * mode 0711) nor enter the directories in it (0700). A plan file that a sandboxed command must
 * write is handed to it by its sandbox.
 */
public final class PrivateTemp {
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

  private PrivateTemp() {}

  /** The directory of every livegate process of this user: what a sandbox hides. */
  public static Path base() {
    return Root.PATH.getParent();
  }

  /** This process's directory in {@link #base}, made when first asked for. */
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
      return Files.createTempDirectory(Root.PATH, prefix, OWNER_ONLY);
    } catch (IOException e) {
      throw new LivegateException(
          "cannot create a private directory in " + Root.PATH + ": " + e.getMessage(), e);
    }
  }

  /** Holds the directory: made once, by the first thread that asks, removed at the JVM's exit. */
  private static final class Root {
    static final Path PATH = create();

    private static Path create() {
      String user = System.getProperty("user.name", "").replaceAll("[^A-Za-z0-9._-]", "_");
      Path base = Path.of(System.getProperty("java.io.tmpdir")).resolve("livegate-" + user);
      Path root;
      try {
        try {
          Files.createDirectory(base, OWNER_ONLY);
        } catch (FileAlreadyExistsException e) {
          // made by an earlier livegate process of this user: checked below
        }
        if (!Files.isDirectory(base, LinkOption.NOFOLLOW_LINKS)) {
          throw new IOException(base + " is not a directory");
        }
        root = Files.createTempDirectory(base, "", OWNER_ONLY);
        if (!Files.getOwner(base, LinkOption.NOFOLLOW_LINKS).equals(Files.getOwner(root))) {
          Files.delete(root);
          throw new IOException(base + " belongs to another user; remove it");
        }
        // others may pass through to a file their sandbox hands them by path, never list one
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwx--x--x"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
      } catch (IOException e) {
        throw new LivegateException(
            "cannot create livegate's private temporary directory in "
                + base
                + ": "
                + e.getMessage(),
            e);
      }
      // last, after what still uses them is closed (Shutdown)
      Shutdown.temporaryFiles(() -> delete(root));
      return root;
    }

    private static void delete(Path root) {
      try (Stream<Path> paths = Files.walk(root)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException e) {
        // the JVM is exiting; what is left is the JVM user's alone, in its private base
      }
    }
  }
}
