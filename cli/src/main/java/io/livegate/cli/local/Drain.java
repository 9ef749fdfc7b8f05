package io.livegate.cli.local;

import io.livegate.core.DaemonThreads;
import io.livegate.process.ProcessCommandRunner;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * A graceful stop on Ctrl-C, SIGTERM or SIGHUP (a closed terminal, a dropped ssh session). The
 * first signal stops releasing work: each flow stops before its next step, and running terraform
 * processes (which run in sessions of their own, out of the terminal's reach) may finish within a
 * grace period; after it, each gets one SIGINT, the way terraform expects to be interrupted. A
 * second signal interrupts them at once. What finished is recorded; what did not stays at its
 * recorded step for {@code livegate resume}.
 *
 * <p>The handlers replace the JVM's, which would start the shutdown hooks, closing the metadb under
 * the running flows. The JDK has no public API for that; {@code sun.misc.Signal} is the supported
 * way (module jdk.unsupported).
 */
public final class Drain {
  private final ProcessCommandRunner processes;
  private final Duration grace;
  private final Consumer<String> log;
  private final AtomicInteger signals = new AtomicInteger();
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final ScheduledExecutorService timer = DaemonThreads.timer("livegate-drain");

  /**
   * @param processes the runner of the flows' terraform processes
   * @param grace how long running processes may take to finish after the first signal
   */
  public Drain(ProcessCommandRunner processes, Duration grace, Consumer<String> log) {
    this.processes = processes;
    this.grace = grace;
    this.log = log;
  }

  /** Handles SIGINT, SIGTERM and SIGHUP with this drain from now on. */
  public void install() {
    Signal.handle(new Signal("INT"), signal -> signalled("Ctrl-C"));
    Signal.handle(new Signal("TERM"), signal -> signalled("SIGTERM"));
    Signal.handle(new Signal("HUP"), signal -> signalled("SIGHUP"));
  }

  /** Waits for the first signal: what a command that runs until stopped ({@code serve}) does. */
  public void awaitSignal() throws InterruptedException {
    stopped.await();
  }

  /** What a signal does; the first one drains, the next interrupts. */
  public void signalled(String what) {
    if (signals.incrementAndGet() == 1) {
      stopped.countDown();
      log.accept(
          what
              + ": stopping. Units stop before their next step; running terraform processes may"
              + " finish for "
              + grace.toSeconds()
              + " s, then are interrupted. Press Ctrl-C again to interrupt them now.");
      timer.schedule(this::interruptRunning, grace.toMillis(), TimeUnit.MILLISECONDS);
    } else {
      log.accept(what + " again: interrupting the running terraform processes now.");
      interruptRunning();
    }
  }

  /** Whether a signal asked to stop: no new work starts. */
  public boolean draining() {
    return signals.get() > 0;
  }

  /**
   * Whether running processes were interrupted: a step that failed after this is unfinished, not
   * failed.
   */
  public boolean interrupted() {
    return interrupted.get();
  }

  private void interruptRunning() {
    if (processes.busy()) {
      interrupted.set(true);
      processes.interruptAll();
    }
  }
}
