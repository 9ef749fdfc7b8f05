package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.stream.Stream;

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
   * and never followed.
   */
  static void restrict(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.toList()) {
        PosixFileAttributeView view =
            Files.getFileAttributeView(
                path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (view == null || Files.isSymbolicLink(path)) {
          continue;
        }
        Set<PosixFilePermission> permissions = view.readAttributes().permissions();
        if (permissions.removeAll(OTHERS)) {
          view.setPermissions(permissions);
        }
      }
    } catch (IOException e) {
      throw new LivegateException(
          "cannot make " + root + " readable by its owner only: " + e.getMessage(), e);
    }
  }
}
