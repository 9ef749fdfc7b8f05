package io.livegate.core.runner;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What of the machine terraform and terragrunt can see and change while they run the code being
 * deployed, which nobody has voted on yet. {@link #none} leaves them the whole machine; the process
 * module's {@code BubblewrapSandbox} hides the local state directory (the metadb, the vote key, the
 * other units' plans) and {@link PrivateTemp}, and its {@code SetprivSandbox} runs them as another
 * user than the ECS task's Java. Every command that runs the repository's code goes through one:
 * the deployments' plans and applies, pull requests' plans, the plan scan and drift.
 */
public interface Sandbox {
  /**
   * A plan file the command may use.
   *
   * @param writable whether the command writes it (plan) or only reads it (show, apply)
   */
  record PlanFile(Path path, boolean writable) {}

  /**
   * The argv that runs {@code argv} in the sandbox, where {@code repositoryRoot} is writable (the
   * units' {@code .terraform} directories, a local backend's state) and {@code planFile}, if any,
   * is the only plan there is.
   */
  List<String> wrap(List<String> argv, Path repositoryRoot, Optional<PlanFile> planFile);

  /**
   * The file every wrapped argv must get on its standard input ({@link Command#standardInput}),
   * e.g. the seccomp filter bubblewrap reads there; a wrapped argv started without it fails.
   */
  default Optional<Path> standardInput() {
    return Optional.empty();
  }

  /**
   * This sandbox, but with {@code checkout} read-only to every command: the checkout whose copies
   * the commands run in, which they must not change for the commands after them. Where the sandbox
   * leaves its place writable (a repository under {@code /tmp}), it is otherwise in reach by its
   * absolute path. By default the same sandbox, for one that never shows the command anything
   * writable but its own workspace.
   */
  default Sandbox keepingReadOnly(Path checkout) {
    return this;
  }

  /**
   * This sandbox, but where the commands' own workspaces are made in {@code workspaces} (the local
   * applies' copies, one per execution): a command sees its own there, if it runs in one, and none
   * of the others (an apply's copy holds its unit's state as terraform writes it). The directory is
   * made here if it is absent, so that a copy made in it later is hidden from a command already
   * running. By default the same sandbox, for one that never shows a command more of the machine
   * than its own workspace anyway.
   */
  default Sandbox keepingApart(Path workspaces) {
    return this;
  }

  /** One line for the start of a run: how terraform is confined, or that it is not. */
  String description();

  /**
   * Whether commands that run at the same time can reach one another, for example read each other's
   * environment (an account role's session) through {@code /proc} because they run as the same
   * user. Then units of different accounts must not be planned at the same time, so that no unit's
   * code gets the session of another account's role.
   */
  default boolean concurrentCommandsSeeEachOther() {
    return false;
  }

  /** No sandbox: the command runs as it is; {@code description} says why that is acceptable. */
  static Sandbox none(String description) {
    return new Sandbox() {
      @Override
      public List<String> wrap(List<String> argv, Path repositoryRoot, Optional<PlanFile> plan) {
        return argv;
      }

      @Override
      public String description() {
        return description;
      }
    };
  }
}
