package io.livegate.scan.repo;

import io.livegate.core.LivegateException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * A git repository read with JGit: revisions, the files of a commit, and the changes between two
 * commits. Nothing is checked out, so a scan reads exactly the committed content.
 */
public final class GitRepo implements AutoCloseable {
  /** A config larger than this is refused rather than read into memory. */
  private static final int MAX_FILE_BYTES = 8 * 1024 * 1024;

  private final Repository repository;
  private final String root;

  /**
   * One object reader per thread: a reader keeps its delta-base cache between blobs, so the blobs
   * of one pack are not inflated from the start of their delta chains over and over. Readers are
   * not thread-safe, hence one each; they are closed with the repository.
   */
  private final ThreadLocal<ObjectReader> readers = new ThreadLocal<>();

  private final java.util.Queue<ObjectReader> openReaders =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  private GitRepo(Repository repository) {
    this.repository = repository;
    File workTree =
        repository.isBare() ? repository.getDirectory().getParentFile() : repository.getWorkTree();
    this.root = workTree.toPath().toAbsolutePath().normalize().toString();
  }

  /**
   * Opens the repository at {@code dir} (its work tree or its .git directory).
   *
   * @throws LivegateException when {@code dir} is not a git repository
   */
  public static GitRepo open(Path dir) {
    try {
      Repository repository =
          new FileRepositoryBuilder().findGitDir(dir.toFile()).setMustExist(true).build();
      if (repository.getDirectory() == null) {
        throw new LivegateException(dir + " is not a git repository");
      }
      return new GitRepo(repository);
    } catch (RepositoryNotFoundException | IllegalArgumentException e) {
      throw new LivegateException(dir + " is not a git repository");
    } catch (IOException e) {
      throw new LivegateException(
          "cannot open the git repository at " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The absolute path of the work tree. */
  public String root() {
    return root;
  }

  /**
   * The full commit id that {@code revision} (a sha, branch, tag or expression such as HEAD~1)
   * names.
   */
  public String resolve(String revision) {
    try {
      ObjectId id = repository.resolve(revision + "^{commit}");
      if (id == null) {
        throw new LivegateException("unknown revision '" + revision + "' in " + root);
      }
      return id.name();
    } catch (IOException | RuntimeException e) {
      if (e instanceof LivegateException known) {
        throw known;
      }
      throw new LivegateException(
          "cannot resolve revision '" + revision + "': " + e.getMessage(), e);
    }
  }

  /**
   * The best common ancestor of two revisions: where a branch left its base, which is what GitHub
   * compares a pull request's head with.
   */
  public String mergeBase(String first, String second) {
    try (RevWalk walk = new RevWalk(repository)) {
      walk.setRevFilter(RevFilter.MERGE_BASE);
      walk.markStart(walk.parseCommit(ObjectId.fromString(resolve(first))));
      walk.markStart(walk.parseCommit(ObjectId.fromString(resolve(second))));
      RevCommit base = walk.next();
      if (base == null) {
        throw new LivegateException(
            first + " and " + second + " have no common ancestor in " + root);
      }
      return base.name();
    } catch (IOException e) {
      throw new LivegateException(
          "cannot find the merge base of " + first + " and " + second + ": " + e.getMessage(), e);
    }
  }

  /** The commit that the work tree has checked out, or {@code null} in an empty repository. */
  public String head() {
    try {
      ObjectId id = repository.resolve(Constants.HEAD);
      return id == null ? null : id.name();
    } catch (IOException e) {
      throw new LivegateException("cannot read HEAD of " + root + ": " + e.getMessage(), e);
    }
  }

  /**
   * The full commit id of {@code revision}, which the work tree must have checked out: a command
   * that runs the repository's files runs what is on disk, not what the revision names.
   *
   * @param who what runs the checked-out files, for the message, e.g. "a plan scan"
   */
  public String checkedOut(String revision, String who) {
    String commit = resolve(revision);
    String checkedOut = head();
    if (!commit.equals(checkedOut)) {
      throw new LivegateException(
          who
              + " plans the checked-out files, so "
              + root
              + " must have "
              + revision
              + " ("
              + commit.substring(0, 12)
              + ") checked out; it has "
              + (checkedOut == null ? "nothing" : checkedOut.substring(0, 12)));
    }
    return commit;
  }

  /** Whether the repository holds {@code commit}. */
  public boolean has(String commit) {
    try {
      return repository.getObjectDatabase().has(ObjectId.fromString(commit));
    } catch (IllegalArgumentException e) {
      return false;
    } catch (IOException e) {
      throw new LivegateException("cannot look up commit " + commit + ": " + e.getMessage(), e);
    }
  }

  /** The parents of {@code commit}, the first parent first. */
  public List<String> parents(String commit) {
    try (RevWalk walk = new RevWalk(repository)) {
      RevCommit revCommit = walk.parseCommit(ObjectId.fromString(commit));
      List<String> parents = new ArrayList<>();
      for (RevCommit parent : revCommit.getParents()) {
        parents.add(parent.name());
      }
      return parents;
    } catch (IOException e) {
      throw new LivegateException(
          "cannot read the parents of " + commit + ": " + e.getMessage(), e);
    }
  }

  /**
   * The commits on the first-parent line from {@code from} (included) back to {@code ancestor}
   * (excluded), oldest first; empty when {@code ancestor} is not on that line or either commit is
   * not in the repository. The trunk's history, for {@link io.livegate.core.deploy.TrunkOrder}.
   */
  public Optional<List<String>> firstParentsBetween(String ancestor, String from) {
    if (!has(ancestor) || !has(from)) {
      return Optional.empty();
    }
    try (RevWalk walk = new RevWalk(repository)) {
      List<String> line = new ArrayList<>();
      RevCommit commit = walk.parseCommit(ObjectId.fromString(from));
      while (!commit.name().equals(ancestor)) {
        line.add(commit.name());
        if (commit.getParentCount() == 0) {
          return Optional.empty();
        }
        commit = walk.parseCommit(commit.getParent(0));
      }
      Collections.reverse(line);
      return Optional.of(line);
    } catch (IOException e) {
      throw new LivegateException(
          "cannot walk the first parents of " + from + ": " + e.getMessage(), e);
    }
  }

  /**
   * Who wrote {@code commit}, when, and its message: what a rebase keeps of a commit, so that two
   * commits with the same authorship are one commit, rebased.
   */
  public String authorship(String commit) {
    try (RevWalk walk = new RevWalk(repository)) {
      RevCommit revCommit = walk.parseCommit(ObjectId.fromString(commit));
      return revCommit.getAuthorIdent().toExternalString() + "\n" + revCommit.getFullMessage();
    } catch (IOException e) {
      throw new LivegateException("cannot read commit " + commit + ": " + e.getMessage(), e);
    }
  }

  /** The files of {@code commit}. */
  public SourceTree tree(String commit) {
    Map<String, ObjectId> blobs = new HashMap<>();
    Set<String> executables = new HashSet<>();
    Set<String> directories = new HashSet<>();
    // The directories entered and not yet known to hold a file, by depth: one is a directory of the
    // tree only once a file turns up below it (a subtree of submodules alone holds none).
    List<String> entered = new ArrayList<>();
    int holdingFiles = 0;
    try (RevWalk walk = new RevWalk(repository);
        TreeWalk treeWalk = new TreeWalk(repository)) {
      RevCommit revCommit = walk.parseCommit(ObjectId.fromString(commit));
      treeWalk.addTree(revCommit.getTree());
      while (treeWalk.next()) {
        int depth = treeWalk.getDepth();
        entered.subList(depth, entered.size()).clear();
        holdingFiles = Math.min(holdingFiles, depth);
        if (treeWalk.isSubtree()) {
          entered.add(treeWalk.getPathString());
          treeWalk.enterSubtree();
        } else if (treeWalk.getFileMode(0).getObjectType() == Constants.OBJ_BLOB
            && treeWalk.getFileMode(0) != FileMode.GITLINK) {
          String path = treeWalk.getPathString();
          blobs.put(path, treeWalk.getObjectId(0));
          if (treeWalk.getFileMode(0) == FileMode.EXECUTABLE_FILE) {
            executables.add(path);
          }
          directories.add("");
          directories.addAll(entered.subList(holdingFiles, depth));
          holdingFiles = depth;
        }
      }
    } catch (IOException e) {
      throw new LivegateException("cannot read the tree of " + commit + ": " + e.getMessage(), e);
    }
    return new CommitTree(
        Collections.unmodifiableMap(blobs),
        Set.copyOf(executables),
        Collections.unmodifiableSet(directories));
  }

  /** The files changed from {@code base} to {@code head}, with renames detected. */
  public List<FileChange> changes(String base, String head) {
    try (RevWalk walk = new RevWalk(repository);
        ObjectReader reader = repository.newObjectReader();
        TreeWalk treeWalk = new TreeWalk(repository, reader)) {
      treeWalk.addTree(walk.parseCommit(ObjectId.fromString(base)).getTree());
      treeWalk.addTree(walk.parseCommit(ObjectId.fromString(head)).getTree());
      treeWalk.setRecursive(true);
      // Skips every subtree the commits share, as git diff does, instead of comparing its files.
      treeWalk.setFilter(TreeFilter.ANY_DIFF);
      RenameDetector renames = new RenameDetector(repository);
      renames.addAll(DiffEntry.scan(treeWalk));
      List<FileChange> changes = new ArrayList<>();
      for (DiffEntry entry : renames.compute(reader, null)) {
        changes.add(
            switch (entry.getChangeType()) {
              case ADD -> new FileChange(FileChange.Kind.ADDED, null, entry.getNewPath());
              case DELETE -> new FileChange(FileChange.Kind.DELETED, entry.getOldPath(), null);
              case MODIFY ->
                  new FileChange(FileChange.Kind.MODIFIED, entry.getOldPath(), entry.getNewPath());
              case RENAME ->
                  new FileChange(FileChange.Kind.RENAMED, entry.getOldPath(), entry.getNewPath());
              case COPY -> new FileChange(FileChange.Kind.ADDED, null, entry.getNewPath());
            });
      }
      return changes;
    } catch (IOException | org.eclipse.jgit.api.errors.CanceledException e) {
      throw new LivegateException(
          "cannot compare " + base + " with " + head + ": " + e.getMessage(), e);
    }
  }

  /** Whether {@code path} is a file in {@code commit}; one lookup, without listing the tree. */
  public boolean isFile(String commit, String path) {
    try (RevWalk walk = new RevWalk(repository)) {
      RevCommit revCommit = walk.parseCommit(ObjectId.fromString(commit));
      try (TreeWalk found = TreeWalk.forPath(repository, path, revCommit.getTree())) {
        return found != null && found.getFileMode(0).getObjectType() == Constants.OBJ_BLOB;
      }
    } catch (IOException e) {
      throw new LivegateException(
          "cannot look up " + path + " in " + commit + ": " + e.getMessage(), e);
    }
  }

  private ObjectReader reader() {
    ObjectReader reader = readers.get();
    if (reader == null) {
      reader = repository.newObjectReader();
      readers.set(reader);
      openReaders.add(reader);
    }
    return reader;
  }

  @Override
  public void close() {
    openReaders.forEach(ObjectReader::close);
    repository.close();
  }

  private final class CommitTree implements SourceTree {
    private final Map<String, ObjectId> blobs;
    private final Set<String> executables;
    private final Set<String> directories;

    CommitTree(Map<String, ObjectId> blobs, Set<String> executables, Set<String> directories) {
      this.blobs = blobs;
      this.executables = executables;
      this.directories = directories;
    }

    @Override
    public String root() {
      return root;
    }

    @Override
    public Collection<String> files() {
      return blobs.keySet();
    }

    @Override
    public boolean isFile(String path) {
      return blobs.containsKey(path);
    }

    @Override
    public boolean isDirectory(String path) {
      return directories.contains(path);
    }

    @Override
    public boolean isExecutable(String path) {
      return executables.contains(path);
    }

    @Override
    public String read(String path) {
      return new String(bytes(path), StandardCharsets.UTF_8);
    }

    @Override
    public byte[] bytes(String path) {
      ObjectId id = blobs.get(path);
      if (id == null) {
        throw new MissingFile(path);
      }
      try {
        return reader().open(id, Constants.OBJ_BLOB).getCachedBytes(MAX_FILE_BYTES);
      } catch (IOException e) {
        throw new LivegateException("cannot read " + path + ": " + e.getMessage(), e);
      }
    }
  }
}
