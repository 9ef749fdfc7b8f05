package io.livegate.core.testing;

import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import io.livegate.core.runner.PrivateTemp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A {@link CommandRunner} that starts nothing: each command's result is looked up by its working
 * directory and its verb ({@code init}, {@code plan}, ...). Unscripted commands exit 0 with no
 * output. Every call is recorded, with logical start and finish ticks, safely across threads.
 */
public final class ScriptedCommandRunner implements CommandRunner {
  /** The verb {@link #exitCode(Path, int)} and {@link #result(Path, CommandResult)} script. */
  public static final String PLAN = "plan";

  private static final List<String> VERBS = List.of("init", "plan", "apply", "destroy", "show");

  /** One recorded call; {@code started} and {@code finished} come from one shared clock. */
  public record Call(Command command, String verb, long started, long finished) {
    public Path directory() {
      return command.workingDirectory();
    }
  }

  private final Map<String, CommandResult> results = new ConcurrentHashMap<>();
  private final Map<Path, Duration> delays = new ConcurrentHashMap<>();
  private final List<Call> calls = new ArrayList<>();
  private final AtomicLong clock = new AtomicLong();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger maxRunning = new AtomicInteger();

  /** The plan in {@code directory} exits with {@code exitCode} and prints nothing. */
  public ScriptedCommandRunner exitCode(Path directory, int exitCode) {
    return result(directory, PLAN, new CommandResult(exitCode, "", false));
  }

  /** The plan in {@code directory} ends with {@code result}. */
  public ScriptedCommandRunner result(Path directory, CommandResult result) {
    return result(directory, PLAN, result);
  }

  /** The command with {@code verb} in {@code directory} ends with {@code result}. */
  public ScriptedCommandRunner result(Path directory, String verb, CommandResult result) {
    results.put(key(directory, verb), result);
    return this;
  }

  /** Every command in {@code directory} takes {@code delay}, to let other units overtake it. */
  public ScriptedCommandRunner delay(Path directory, Duration delay) {
    delays.put(normalize(directory), delay);
    return this;
  }

  @Override
  public CommandResult run(Command ran) {
    Command command = asInCheckout(ran);
    long started = clock.incrementAndGet();
    maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
    try {
      Duration delay = delays.get(normalize(command.workingDirectory()));
      if (delay != null) {
        Thread.sleep(delay.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new CommandResult(-1, "interrupted", false);
    } finally {
      running.decrementAndGet();
    }
    String verb = verb(command);
    CommandResult result =
        results.getOrDefault(
            key(command.workingDirectory(), verb), new CommandResult(0, "", false));
    synchronized (calls) {
      calls.add(new Call(command, verb, started, clock.incrementAndGet()));
    }
    return result;
  }

  /** Every call so far, in the order they started. */
  public List<Call> calls() {
    synchronized (calls) {
      List<Call> copy = new ArrayList<>(calls);
      copy.sort(Comparator.comparingLong(Call::started));
      return copy;
    }
  }

  /** The calls with {@code verb}, in the order they started. */
  public List<Call> calls(String verb) {
    return calls().stream().filter(call -> call.verb().equals(verb)).toList();
  }

  /**
   * The pairs of calls that ran at the same time while {@code group} puts them apart (for example
   * their units' accounts), each as the two calls' directories.
   */
  public List<List<Path>> overlapsAcross(Function<Call, String> group) {
    List<Call> all = calls();
    List<List<Path>> overlaps = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      for (int j = i + 1; j < all.size(); j++) {
        Call first = all.get(i);
        Call second = all.get(j);
        if (second.started() < first.finished()
            && !group.apply(first).equals(group.apply(second))) {
          overlaps.add(List.of(first.directory(), second.directory()));
        }
      }
    }
    return overlaps;
  }

  /** The most calls that were running at the same time. */
  public int maxConcurrentCalls() {
    return maxRunning.get();
  }

  /** The first argv element after the program that names a known verb, or "" when none does. */
  private static String verb(Command command) {
    return command.argv().stream().skip(1).filter(VERBS::contains).findFirst().orElse("");
  }

  /**
   * {@code command} as if it ran in the checkout it ran a throwaway copy of (scan's {@code
   * ThrowawayCopy}, a {@code unit-} directory in {@link PrivateTemp#root} whose {@code .git} file
   * names the checkout's): suites script and read the checkout's paths, whichever copy a unit's
   * command got.
   */
  private static Command asInCheckout(Command command) {
    Path directory = normalize(command.workingDirectory());
    Path copy = directory;
    while (copy != null
        && !(PrivateTemp.root().equals(copy.getParent())
            && copy.getFileName().toString().startsWith("unit-"))) {
      copy = copy.getParent();
    }
    if (copy == null || !Files.isRegularFile(copy.resolve(".git"))) {
      return command;
    }
    Path checkout;
    try {
      String gitdir = Files.readString(copy.resolve(".git")).strip();
      checkout = Path.of(gitdir.substring("gitdir: ".length())).getParent();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String from = copy.toString();
    String to = checkout.toString();
    return new Command(
        command.argv().stream().map(argument -> argument.replace(from, to)).toList(),
        checkout.resolve(copy.relativize(directory).toString()),
        command.environment(),
        command.timeout(),
        command.pidFile(),
        command.standardInput());
  }

  private static String key(Path directory, String verb) {
    return normalize(directory) + "\0" + verb;
  }

  private static Path normalize(Path directory) {
    return directory.toAbsolutePath().normalize();
  }
}
