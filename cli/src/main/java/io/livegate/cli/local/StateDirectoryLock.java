package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * One livegate process at a time per state directory: an exclusive lock on its {@code lock} file,
 * held while the process uses the metadb and released by the operating system when the process
 * ends, however it ends (a lock left by kill -9 is not stale). The file says who holds it, so a
 * second command can say which run is using the directory and where to watch it.
 */
public final class StateDirectoryLock implements AutoCloseable {
  /** Another livegate process holds the state directory. */
  public static final class Busy extends LivegateException {
    private final String holder;

    Busy(Path directory, String holder) {
      super(
          "the state directory "
              + directory
              + " is in use by another livegate run ("
              + holder
              + "); wait for it to finish, and watch it with: livegate status --state-dir "
              + directory);
      this.holder = holder;
    }

    /** Who holds it: the process, since when, and its status page once it serves one. */
    public String holder() {
      return holder;
    }
  }

  private final FileChannel channel;
  private final FileLock lock;
  private final String since;

  private StateDirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
    this.since = Instant.now().toString();
  }

  /** What the lock file says of a reader ({@link StateReader}) that holds it for a moment. */
  private static final String READING = ", reading for a moment (status or ui)";

  /**
   * Takes the lock of {@code directory} for a run, waiting up to {@code wait} while a reader
   * ({@code status}, or {@code ui} answering a page) holds it, since a reader lets go within
   * moments; another run's hold fails at once with {@link Busy} naming its holder.
   */
  public static StateDirectoryLock takeFromReaders(Path directory, Duration wait) {
    Instant deadline = Instant.now().plus(wait);
    while (true) {
      try {
        return take(directory);
      } catch (Busy busy) {
        if (!busy.holder().endsWith(READING) || Instant.now().isAfter(deadline)) {
          throw busy;
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LivegateException("interrupted while waiting for " + directory, e);
      }
    }
  }

  /** Takes the lock of {@code directory}, or fails with {@link Busy} naming its holder. */
  public static StateDirectoryLock take(Path directory) {
    Path file = directory.resolve("lock");
    FileChannel channel;
    try {
      channel =
          FileChannel.open(
              file,
              Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
              // Made owner-only from the start: it names the holder's process, and the state
              // directory is restricted only once the lock is held.
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (IOException e) {
      throw new LivegateException("cannot open " + file + ": " + e.getMessage(), e);
    }
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException e) {
      close(channel);
      throw new LivegateException("cannot lock " + file + ": " + e.getMessage(), e);
    }
    if (lock == null) {
      String holder = read(channel);
      close(channel);
      throw new Busy(directory, holder.isBlank() ? "holder unknown" : holder);
    }
    StateDirectoryLock taken = new StateDirectoryLock(channel, lock);
    taken.describe("");
    return taken;
  }

  /** Says that a reader holds it, for a moment: a run waits for it ({@link #takeFromReaders}). */
  public void reading() {
    describe(READING);
  }

  /** Adds where the holder's status page is to what a second command is told. */
  public void statusPage(String url) {
    describe(", status page " + url);
  }

  private void describe(String more) {
    String holder = "pid " + ProcessHandle.current().pid() + " since " + since + more;
    try {
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)), 0);
      channel.force(false);
    } catch (IOException e) {
      throw new LivegateException("cannot write the state directory's lock: " + e.getMessage(), e);
    }
  }

  private static String read(FileChannel channel) {
    try {
      ByteBuffer buffer = ByteBuffer.allocate(1024);
      channel.read(buffer, 0);
      return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "";
    }
  }

  private static void close(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing was locked through it
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new LivegateException(
          "cannot release the state directory's lock: " + e.getMessage(), e);
    }
  }
}
