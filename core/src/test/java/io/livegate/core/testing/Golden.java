package io.livegate.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Holds what people read (mails, comments, pages) to a golden file under the module's {@code
 * src/test/resources/golden}, exactly. Run with {@code -Dgolden.update=true} to rewrite the files
 * after an intended change, then read the diff before committing it.
 */
public final class Golden {
  private static final Path DIRECTORY = Path.of("src", "test", "resources", "golden");

  private Golden() {}

  public static void assertMatches(String name, String actual) {
    Path file = DIRECTORY.resolve(name);
    try {
      if (Boolean.getBoolean("golden.update")) {
        Files.createDirectories(file.getParent());
        Files.writeString(file, actual, StandardCharsets.UTF_8);
      }
      assertThat(file).as("golden file %s (-Dgolden.update=true writes it)", file).exists();
      assertThat(actual)
          .as("%s; after an intended change, run with -Dgolden.update=true", file)
          .isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
