package io.livegate.scan.repo;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.ResetCommand;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;

/**
 * Checks out one commit of the live repository into a workspace: cloned on first use, fetched
 * after, then the commit itself, detached, never a branch head that may have moved on. The
 * repository is a clone URL or a local path. The workspace is never trusted: the code deployed from
 * it ran there, so its git configuration is replaced before every fetch and what it left beside the
 * commit's files is removed ({@link #reopen}, {@link #removeUntracked}).
 */
public final class Checkout {
  private static final RefSpec BRANCHES = new RefSpec("+refs/heads/*:refs/remotes/origin/*");

  private final String repositoryUrl;
  private final Optional<Supplier<String>> token;

  /**
   * @param token a GitHub token for HTTPS clones, sent as the x-access-token user and asked for at
   *     each clone or fetch (a GitHub App's installation token is renewed hourly); empty for none
   */
  public Checkout(String repositoryUrl, Optional<Supplier<String>> token) {
    this.repositoryUrl = repositoryUrl;
    this.token = token;
  }

  /** The workspace's root, with {@code commit} checked out. */
  public Path at(Path workspace, String commit) {
    return at(workspace, commit, Optional.empty());
  }

  /**
   * The workspace's root, with {@code commit} checked out; when no branch holds it, {@code ref} is
   * fetched too: a pull request's head ({@code refs/pull/N/head}) is not on a branch of the base
   * repository when it comes from a fork or was force-pushed over.
   */
  public Path at(Path workspace, String commit, Optional<String> ref) {
    if (!commit.matches("[0-9a-f]{40}")) {
      throw new LivegateException("a checkout needs a full commit sha, not '" + commit + "'");
    }
    CredentialsProvider credentials = credentials();
    try {
      Git git;
      if (Files.isDirectory(workspace.resolve(".git"))) {
        git = reopen(workspace);
        git.fetch()
            .setCredentialsProvider(credentials)
            .setRemote(repositoryUrl)
            .setRefSpecs(BRANCHES)
            .call();
      } else {
        Files.createDirectories(workspace);
        git =
            Git.cloneRepository()
                .setURI(repositoryUrl)
                .setDirectory(workspace.toFile())
                .setCredentialsProvider(credentials)
                .setNoCheckout(true)
                .call();
      }
      try (git) {
        if (ref.isPresent() && !git.getRepository().getObjectDatabase().has(id(commit))) {
          git.fetch()
              .setCredentialsProvider(credentials)
              .setRemote(repositoryUrl)
              .setRefSpecs(new RefSpec("+" + ref.get() + ":refs/livegate/fetched"))
              .call();
        }
        // The workspace is livegate's own: a hard reset makes the index and the tracked files the
        // commit's, whatever was there. A plain checkout after a clone without checkout refuses
        // every file that differs from the branch head the clone points at, i.e. any merge but
        // the newest one. Then HEAD is detached at the commit.
        git.reset().setMode(ResetCommand.ResetType.HARD).setRef(commit).call();
        git.checkout().setName(commit).call();
        removeUntracked(git);
      }
      return workspace;
    } catch (IOException | GitAPIException e) {
      throw new LivegateException(
          "cannot check out " + commit + " of " + repositoryUrl + ": " + e.getMessage(), e);
    }
  }

  /**
   * The workspace's repository with a configuration of livegate's, never the one found there: the
   * code of an earlier deployment ran in the workspace and may have rewritten {@code .git/config}
   * ({@code remote.origin.url} or a {@code url.*.insteadOf} pointing at its own server, which the
   * token would then be sent to; a {@code filter.*.smudge} command that a checkout would run in
   * livegate's own process). Fetches name the URL livegate was given, never a remote.
   */
  private Git reopen(Path workspace) throws IOException {
    Path config = workspace.resolve(".git/config");
    Files.deleteIfExists(config);
    Git git = Git.open(workspace.toFile());
    StoredConfig fresh = git.getRepository().getConfig();
    fresh.setInt("core", null, "repositoryformatversion", 0);
    fresh.setBoolean("core", null, "bare", false);
    fresh.setBoolean("core", null, "filemode", true);
    fresh.setString("remote", "origin", "url", repositoryUrl);
    fresh.setString("remote", "origin", "fetch", BRANCHES.toString());
    fresh.save();
    return git;
  }

  /**
   * Removes what the commit does not hold and git does not ignore: a file an earlier deployment's
   * code planted (an {@code _override.tf} beside another unit's code) would otherwise run in this
   * one. terraform's own local state ({@code *.tfstate}, {@code *.tfstate.backup}) stays: a local
   * backend keeps it in the unit's directory, and removing it would lose what was applied.
   */
  private static void removeUntracked(Git git) throws GitAPIException {
    Set<String> untracked = new TreeSet<>();
    for (String path : git.status().call().getUntracked()) {
      String name = path.substring(path.lastIndexOf('/') + 1);
      if (!name.endsWith(".tfstate") && !name.endsWith(".tfstate.backup")) {
        untracked.add(path);
      }
    }
    if (!untracked.isEmpty()) {
      git.clean().setPaths(untracked).call();
    }
  }

  private CredentialsProvider credentials() {
    return token
        .map(t -> new UsernamePasswordCredentialsProvider("x-access-token", t.get()))
        .orElse(null);
  }

  /** The commit that {@code branch} of the live repository points at now (ls-remote). */
  public String branchHead(String branch) {
    String ref = "refs/heads/" + branch;
    try {
      Ref head =
          Git.lsRemoteRepository()
              .setRemote(repositoryUrl)
              .setCredentialsProvider(credentials())
              .setHeads(true)
              .callAsMap()
              .get(ref);
      if (head == null) {
        throw new LivegateException(repositoryUrl + " has no branch " + branch);
      }
      return head.getObjectId().name();
    } catch (GitAPIException e) {
      throw new LivegateException(
          "cannot read " + ref + " of " + repositoryUrl + ": " + e.getMessage(), e);
    }
  }

  /**
   * Makes {@code commit} available in the workspace that {@link #at} made, fetching {@code ref}
   * when the workspace does not hold it yet (a squashed or rebased pull request's head is on no
   * branch).
   *
   * @return whether the workspace holds {@code commit} now; false when the remote has no {@code
   *     ref} or it does not lead to {@code commit}
   */
  public boolean fetch(Path workspace, String commit, String ref) {
    CredentialsProvider credentials = credentials();
    try (Git git = reopen(workspace)) {
      if (git.getRepository().getObjectDatabase().has(id(commit))) {
        return true;
      }
      git.fetch()
          .setCredentialsProvider(credentials)
          .setRemote(repositoryUrl)
          .setRefSpecs(new RefSpec("+" + ref + ":refs/livegate/fetched"))
          .call();
      return git.getRepository().getObjectDatabase().has(id(commit));
    } catch (GitAPIException e) {
      // The remote has no such ref: the commit is not available, which the caller reports.
      return false;
    } catch (IOException e) {
      throw new LivegateException(
          "cannot fetch " + ref + " of " + repositoryUrl + ": " + e.getMessage(), e);
    }
  }

  private static ObjectId id(String commit) {
    return ObjectId.fromString(commit);
  }
}
