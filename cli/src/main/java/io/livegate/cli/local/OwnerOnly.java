package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * Files of the state directory that only their owner may read: the secrets, the plans, the mails
 * with their vote links. Other users of the machine must not see them.
 */
final class OwnerOnly {
  private static final Set<PosixFilePermission> OTHERS =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private OwnerOnly() {}

  /** A random secret of hex digits, made on first use in {@code file} (mode 0600). */
  static String secret(Path file) {
    try {
      if (!Files.exists(file)) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        write(file, (HexFormat.of().formatHex(secret) + "\n").getBytes(StandardCharsets.UTF_8));
      }
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new LivegateException("cannot read or create " + file + ": " + e.getMessage(), e);
    }
  }

  /** Writes {@code file} whole, readable by its owner only, or leaves it as it was. */
  static void write(Path file, byte[] content) throws IOException {
    Path temporary = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
    Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
    Files.write(temporary, content);
    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Takes every permission of group and others away from {@code root} and everything under it: a
   * state directory from before this rule had world-readable plans. Symbolic links are left alone,
   * and never followed. A file that goes while the walk runs is passed over: the metadb's server of
   * a run that holds the state directory (or of a killed one, still stopping) writes and removes
   * its own files meanwhile, e.g. {@code pg_internal.init}.
   */
  static void restrict(Path root) {
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes)
                throws IOException {
              takeAway(dir);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              if (!attributes.isSymbolicLink()) {
                takeAway(file);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE;
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw new LivegateException(
          "cannot make " + root + " readable by its owner only: " + e.getMessage(), e);
    }
  }

  private static void takeAway(Path path) throws IOException {
    PosixFileAttributeView view =
        Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    if (view == null) {
      return;
    }
    try {
      Set<PosixFilePermission> permissions = view.readAttributes().permissions();
      if (permissions.removeAll(OTHERS)) {
        view.setPermissions(permissions);
      }
    } catch (NoSuchFileException gone) {
      // removed since the walk listed it: nothing is left to restrict
    }
  }
}
