package io.livegate.process;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.PrivateTemp;
import io.livegate.core.runner.Sandbox;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs terraform and terragrunt under bubblewrap ({@code bwrap}): the file system is read-only
 * except the repository, the one plan file the command writes and a scratch directory of the
 * command's own ({@code TMPDIR}, an empty in-memory file system that ends with it). The host's
 * {@code /tmp} is read-only like the rest: a write there fails loudly instead of landing somewhere
 * that ends with the command (a local backend's state under {@code /tmp} is read, and its write
 * refused, as one anywhere else outside the repository), and nothing one command leaves reaches
 * another. Livegate's own temporary files ({@link PrivateTemp}: the other commands' copies and
 * outputs) and every JVM's performance data are empty in-memory file systems; the checkout whose
 * copy that repository is stays read-only ({@link #keepingReadOnly}), and of the copies kept in one
 * directory (the local applies') each command sees only its own ({@link #keepingApart}); the hidden
 * directories (the state directory: metadb, vote key, other units' plans and checkouts) are empty
 * in-memory file systems; the process sees only its own processes, so neither livegate's {@code
 * /proc/PID/environ} nor its {@code /proc/PID/root} is in reach. The network stays, because
 * providers need their APIs; the metadb answers only to its password, which is in the hidden state
 * directory.
 *
 * <p>bwrap runs the command in a child it waits for and does not forward signals to; the runner
 * interrupts the whole process group ({@link ProcessCommandRunner#interruptAll}), which reaches
 * terraform. There is no {@code --die-with-parent}: an apply must be able to outlive livegate.
 */
public final class BubblewrapSandbox implements Sandbox {
  private final Path bwrap;
  private final List<Path> hidden;
  private final List<Path> readOnly;
  private final List<Path> apart;

  private BubblewrapSandbox(Path bwrap, List<Path> hidden, List<Path> readOnly, List<Path> apart) {
    this.bwrap = bwrap;
    this.hidden = normalized(hidden);
    this.readOnly = normalized(readOnly);
    this.apart = normalized(apart);
  }

  private static List<Path> normalized(List<Path> paths) {
    return paths.stream().map(path -> path.toAbsolutePath().normalize()).toList();
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
        return Optional.of(new BubblewrapSandbox(candidate, hidden, List.of(), List.of()));
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
              .redirectInput(filter().toFile())
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

  /**
   * What every command gets, whoever runs livegate: its own user namespace with every capability
   * dropped, even from the bounding set (as root, bubblewrap would otherwise leave the command
   * every capability, and with them {@code umount} of the tmpfs over the state directory), its own
   * pid namespace with a fresh {@code /proc} (no other process's {@code environ} or {@code mem}),
   * its own IPC, UTS and cgroup namespaces, and the {@link SeccompFilter} on standard input ({@code
   * --seccomp 0}; bubblewrap also sets {@code no_new_privs}). bubblewrap closes standard input once
   * it has read the filter, so the command starts without one: terraform runs with {@code
   * -input=false} and reads none.
   *
   * <p>No {@code --new-session}: the runner's {@code setsid} already leaves the command without a
   * controlling terminal (and the filter refuses {@code TIOCSTI}), while a session of its own would
   * take terraform out of the process group that an interrupt reaches. No {@code
   * --die-with-parent}: an apply must be able to outlive livegate (see the class comment).
   */
  private static List<String> isolation() {
    return List.of(
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--unshare-user",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--cap-drop",
        "ALL",
        "--seccomp",
        "0");
  }

  @Override
  public Sandbox keepingReadOnly(Path checkout) {
    List<Path> more = new ArrayList<>(readOnly);
    more.add(checkout);
    return new BubblewrapSandbox(bwrap, hidden, more, apart);
  }

  @Override
  public Sandbox keepingApart(Path workspaces) {
    try {
      Files.createDirectories(workspaces);
    } catch (IOException e) {
      throw new LivegateException(
          "cannot make " + workspaces + " for the unit commands' copies: " + e.getMessage(), e);
    }
    List<Path> more = new ArrayList<>(apart);
    more.add(workspaces);
    return new BubblewrapSandbox(bwrap, hidden, readOnly, more);
  }

  @Override
  public List<String> wrap(List<String> argv, Path repositoryRoot, Optional<PlanFile> planFile) {
    List<Mount> mounts = new ArrayList<>();
    // livegate's own temporary files: the other commands' copies, plan files and outputs. Over it,
    // an empty in-memory file system that ends with the command is its TMPDIR, its one scratch
    // place; its own copy and plan file, which live there, are bound back below.
    mounts.add(new Mount("--tmpfs", PrivateTemp.base()));
    // every JVM's performance data (its command line, its system properties), livegate's too
    javaPerformanceData().forEach(dir -> mounts.add(new Mount("--tmpfs", dir)));
    // a hidden directory that does not exist (a scan's unused state directory) holds nothing
    hidden.stream()
        .filter(Files::isDirectory)
        .forEach(dir -> mounts.add(new Mount("--tmpfs", dir)));
    Path repository = repositoryRoot.toAbsolutePath().normalize();
    // a checkout that the commands run copies of, read-only even where it lies under a writable
    // place; one in a hidden directory stays hidden, and the command's own workspace stays writable
    readOnly.stream()
        .filter(checkout -> !checkout.equals(repository))
        .filter(checkout -> hidden.stream().noneMatch(checkout::startsWith))
        .filter(checkout -> Files.isDirectory(checkout))
        .forEach(checkout -> mounts.add(new Mount("--ro-bind", checkout)));
    // the other commands' copies (a running apply's holds its unit's state): the command's own, if
    // it is one of them, is bound back below, over this empty file system
    apart.stream()
        .filter(workspaces -> hidden.stream().noneMatch(workspaces::startsWith))
        .forEach(workspaces -> mounts.add(new Mount("--tmpfs", workspaces)));
    mounts.add(new Mount("--bind", repository));
    // the repository's git directory stays livegate's: serve fetches into it and checks out from
    // it, so code that rewrote its config or objects would steer the next deployment
    if (Files.isDirectory(repository.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
      mounts.add(new Mount("--ro-bind", repository.resolve(".git")));
    }
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
    wrapped.addAll(List.of("--setenv", "TMPDIR", PrivateTemp.base().toString()));
    wrapped.add("--");
    wrapped.addAll(argv);
    return wrapped;
  }

  /** The seccomp filter, which bubblewrap reads on standard input ({@code --seccomp 0}). */
  @Override
  public Optional<Path> standardInput() {
    return Optional.of(filter());
  }

  private static Path filter() {
    return Filter.PATH;
  }

  /** Holds the filter's file: written once, where only livegate can change it. */
  private static final class Filter {
    static final Path PATH = write();

    private static Path write() {
      Path file = PrivateTemp.directory("seccomp-").resolve("filter.bpf");
      try {
        Files.write(file, SeccompFilter.program());
      } catch (IOException e) {
        throw new LivegateException("cannot write the sandbox's seccomp filter: " + e, e);
      }
      return file;
    }
  }

  /** The JVMs' {@code hsperfdata_USER} directories in {@code /tmp}. */
  private static List<Path> javaPerformanceData() {
    try (Stream<Path> entries = Files.list(Path.of("/tmp"))) {
      return entries
          .filter(entry -> entry.getFileName().toString().startsWith("hsperfdata_"))
          .filter(entry -> Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS))
          .toList();
    } catch (IOException e) {
      throw new LivegateException("cannot list /tmp to hide the JVMs' files: " + e, e);
    }
  }

  @Override
  public String description() {
    return "terraform runs in a bubblewrap sandbox without capabilities (seccomp: no mount,"
        + " namespaces or ptrace) that hides "
        + hidden
        + ", livegate's temporary files and the JVMs' performance data, and gives each command"
        + " an empty TMPDIR of its own, which ends with it (/tmp is read-only)";
  }

  private record Mount(String option, Path path) {}
}
