package io.livegate.tests.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/** Packs a directory of classes into a jar, as the deployment package holds them. */
final class JarPacker {
  private JarPacker() {}

  /** Packs the files under {@code classes} whose relative path {@code include} accepts. */
  static void pack(Path classes, Path jar, Predicate<String> include) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(classes)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().putValue("Manifest-Version", "1.0");
    Files.createDirectories(jar.getParent());
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
      for (Path file : files) {
        String name = classes.relativize(file).toString().replace('\\', '/');
        if (!include.test(name)) {
          continue;
        }
        jarOut.putNextEntry(new JarEntry(name));
        Files.copy(file, jarOut);
        jarOut.closeEntry();
      }
    }
  }
}
