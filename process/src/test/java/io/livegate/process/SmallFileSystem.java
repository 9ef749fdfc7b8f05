package io.livegate.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Assumptions;

/**
 * A file system of its own (tmpfs) mounted at a directory, small enough for a test to fill without
 * filling the machine's: what a full disk does to a command or a run. Mounting needs root (as the
 * tests run here); where it is not permitted the test is skipped and says why. Closing unmounts it
 * lazily: the metadb's server of a killed run may still hold files in it.
 */
public final class SmallFileSystem implements AutoCloseable {
  private final Path directory;

  private SmallFileSystem(Path directory) {
    this.directory = directory;
  }

  /** Mounts a tmpfs of {@code size} (as mount's {@code size=} option: {@code 2m}) at directory. */
  public static SmallFileSystem mount(Path directory, String size)
      throws IOException, InterruptedException {
    Files.createDirectories(directory);
    Process mount =
        new ProcessBuilder(
                "mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", directory.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(mount.getInputStream().readAllBytes());
    Assumptions.assumeTrue(
        mount.waitFor() == 0,
        "a full disk needs a small file system, and mount -t tmpfs is not permitted here: "
            + output);
    return new SmallFileSystem(directory);
  }

  public Path directory() {
    return directory;
  }

  /**
   * Writes {@code filler}, in this file system, until it has no space left: first all its free
   * space at once with fallocate (a run goes on meanwhile, and under load a test writing 300 MB
   * block by block let a serve case's unit get from its plan into its apply before the disk was
   * full), then what that left, block by block.
   */
  public void fill(Path filler) throws IOException, InterruptedException {
    long free = Files.getFileStore(directory).getUsableSpace();
    // Its failure (the space taken meanwhile) leaves the rest to the writes below.
    new ProcessBuilder("fallocate", "-l", Long.toString(free), filler.toString())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start()
        .waitFor();
    byte[] block = new byte[1 << 20];
    try (var out =
        Files.newOutputStream(filler, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      while (true) {
        out.write(block);
      }
    } catch (IOException e) {
      if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
        throw e;
      }
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    new ProcessBuilder("umount", "--lazy", directory.toString()).inheritIO().start().waitFor();
  }
}
