package io.livegate.process;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Holds the image's sandbox user ({@link SetprivSandbox#IMAGE_USER}) for one test class at a time,
 * across every JVM on the machine: register it with {@code @ExtendWith(SandboxUserLock.class)} on a
 * class whose commands run through a {@link SetprivSandbox} of that user.
 *
 * <p>Before a command, the sandbox kills every process of its user that its own JVM did not start
 * (what an earlier command left behind). Test classes run in parallel JVMs (surefire's forks, and
 * other builds on the same machine), so a class in one JVM would kill another's terraform mid-plan.
 * The lock is a file lock in the temp directory, which the operating system releases when the JVM
 * dies; a class waits for it as long as the holder runs.
 */
public final class SandboxUserLock implements BeforeAllCallback, AfterAllCallback {
  private static final Path FILE =
      Path.of(
          System.getProperty("java.io.tmpdir"),
          "livegate-sandbox-user-" + SetprivSandbox.IMAGE_USER + ".lock");

  /** A JVM may hold a file's lock only once: its own classes take turns here first. */
  private static final Semaphore IN_THIS_JVM = new Semaphore(1);

  private static FileChannel channel;
  private static FileLock lock;

  @Override
  public void beforeAll(ExtensionContext context) throws IOException, InterruptedException {
    IN_THIS_JVM.acquire();
    try {
      channel = FileChannel.open(FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      IN_THIS_JVM.release();
      throw e;
    }
    try {
      lock = channel.lock();
    } catch (IOException e) {
      channel.close();
      IN_THIS_JVM.release();
      throw e;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    try {
      lock.release();
      channel.close();
    } finally {
      IN_THIS_JVM.release();
    }
  }
}
