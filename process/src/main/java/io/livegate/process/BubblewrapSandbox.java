package io.livegate.process;

import io.livegate.core.runner.PrivateTemp;
import io.livegate.core.runner.Sandbox;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs terraform and terragrunt under bubblewrap ({@code bwrap}): the file system is read-only
 * except the repository, {@code /tmp} and the one plan file the command writes; the hidden
 * directories (the state directory: metadb, vote key, other units' plans and checkouts) and
 * livegate's own temporary files in {@code /tmp} ({@link PrivateTemp}) are empty in-memory file
 * systems; the process sees only its own processes, so neither livegate's {@code /proc/PID/environ}
 * nor its {@code /proc/PID/root} is in reach. The network stays, because providers need their APIs;
 * the metadb answers only to its password, which is in the hidden state directory.
 *
 * <p>bwrap runs the command in a child it waits for and does not forward signals to; the runner
 * interrupts the whole process group ({@link ProcessCommandRunner#interruptAll}), which reaches
 * terraform. There is no {@code --die-with-parent}: an apply must be able to outlive livegate.
 */
public final class BubblewrapSandbox implements Sandbox {
  private final Path bwrap;
  private final List<Path> hidden;

  private BubblewrapSandbox(Path bwrap, List<Path> hidden) {
    this.bwrap = bwrap;
    this.hidden = hidden.stream().map(path -> path.toAbsolutePath().normalize()).toList();
  }

  /**
   * bubblewrap hiding {@code hidden}, if {@code bwrap} is on {@code PATH} and can make a sandbox
   * here (some containers forbid the namespaces it needs).
   */
  public static Optional<Sandbox> find(List<Path> hidden) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = dir.isEmpty() ? null : Path.of(dir, "bwrap");
      if (candidate != null && Files.isExecutable(candidate) && works(candidate)) {
        return Optional.of(new BubblewrapSandbox(candidate, hidden));
      }
    }
    return Optional.empty();
  }

  private static boolean works(Path bwrap) {
    List<String> probe = new ArrayList<>(List.of(bwrap.toString()));
    probe.addAll(isolation());
    probe.add("true");
    try {
      Process process =
          new ProcessBuilder(probe)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return false;
      }
      return process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static List<String> isolation() {
    return List.of(
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--unshare-pid",
        "--unshare-ipc");
  }

  @Override
  public List<String> wrap(List<String> argv, Path repositoryRoot, Optional<PlanFile> planFile) {
    List<Mount> mounts = new ArrayList<>();
    // /tmp stays shared and writable: a local backend or a provisioner may keep files there, and
    // an empty in-memory /tmp would swallow them silently (docs/security.md names the cost).
    mounts.add(new Mount("--bind", Path.of("/tmp")));
    // a hidden directory that does not exist (a scan's unused state directory) holds nothing
    hidden.stream()
        .filter(Files::isDirectory)
        .forEach(dir -> mounts.add(new Mount("--tmpfs", dir)));
    mounts.add(new Mount("--tmpfs", PrivateTemp.base()));
    mounts.add(new Mount("--bind", repositoryRoot.toAbsolutePath().normalize()));
    planFile.ifPresent(
        plan ->
            mounts.add(
                new Mount(
                    plan.writable() ? "--bind" : "--ro-bind",
                    plan.path().toAbsolutePath().normalize())));
    // a mount hides what an earlier one put beneath it, so the outer directories go first
    mounts.sort(Comparator.comparingInt(mount -> mount.path().getNameCount()));
    List<String> wrapped = new ArrayList<>(List.of(bwrap.toString()));
    wrapped.addAll(isolation());
    for (Mount mount : mounts) {
      wrapped.add(mount.option());
      wrapped.add(mount.path().toString());
      if (!mount.option().equals("--tmpfs")) {
        wrapped.add(mount.path().toString());
      }
    }
    wrapped.add("--");
    wrapped.addAll(argv);
    return wrapped;
  }

  @Override
  public String description() {
    return "terraform runs in a bubblewrap sandbox that hides "
        + hidden
        + " and livegate's temporary files";
  }

  private record Mount(String option, Path path) {}
}
