package io.livegate.core.testing;

import io.livegate.core.runner.Sandbox;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@link Sandbox} that confines nothing but says in each argv what it was asked for: {@code
 * sandbox ROOT [PLAN_FILE rw|ro] -- argv...}, so that a test with a {@link ScriptedCommandRunner}
 * sees which commands went through it, with which repository and plan file.
 */
public final class ScriptedSandbox implements Sandbox {
  /** The first element of every argv this sandbox wraps. */
  public static final String PROGRAM = "sandbox";

  private final boolean oneUserForAll;

  /** A sandbox whose commands cannot see each other, as bubblewrap's pid namespaces. */
  public ScriptedSandbox() {
    this(false);
  }

  private ScriptedSandbox(boolean oneUserForAll) {
    this.oneUserForAll = oneUserForAll;
  }

  /** A sandbox whose commands run as one user and so see each other, as setpriv's. */
  public static ScriptedSandbox oneUserForAll() {
    return new ScriptedSandbox(true);
  }

  @Override
  public boolean concurrentCommandsSeeEachOther() {
    return oneUserForAll;
  }

  @Override
  public List<String> wrap(List<String> argv, Path repositoryRoot, Optional<PlanFile> planFile) {
    List<String> wrapped = new ArrayList<>(List.of(PROGRAM, repositoryRoot.toString()));
    planFile.ifPresent(
        plan -> {
          wrapped.add(plan.path().toString());
          wrapped.add(plan.writable() ? "rw" : "ro");
        });
    wrapped.add("--");
    wrapped.addAll(argv);
    return wrapped;
  }

  /** The command {@code wrapped} runs, without what this sandbox put in front of it. */
  public static List<String> unwrap(List<String> wrapped) {
    return wrapped.subList(wrapped.indexOf("--") + 1, wrapped.size());
  }

  @Override
  public String description() {
    return "a scripted sandbox";
  }
}
