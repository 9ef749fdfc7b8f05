package io.livegate.scan.repo;

import io.livegate.core.LivegateException;
import io.livegate.core.RepoPaths;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.TransportConfigCallback;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.CredentialItem;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.NetRCCredentialsProvider;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.SshSessionFactory;
import org.eclipse.jgit.transport.SshTransport;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.sshd.SshdSessionFactoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * Remote sources fetched with JGit into a cache directory: one bare repository per (url, ref),
 * named by a hash of the two, holding a shallow fetch of the ref. A ref that is a full commit id
 * already in the cache is used without the network; a tag or branch is fetched again by each scan,
 * since it may have moved. Files are read from the fetched commit and never checked out.
 *
 * <p>The fetch runs in livegate's process for code that is hostile until voted, so it reaches only
 * what {@link SourceAccess} grants: a {@code file://} source only when local sources are allowed,
 * and the operator's credentials only for the hosts listed there: {@code ~/.netrc} (or a {@link
 * CredentialsProvider#getDefault() default provider}) for http(s), and the user's SSH directory
 * ({@code ~/.ssh}: {@code config}, the identity files, {@code known_hosts}) for {@code ssh://},
 * which is refused for any other host; a host that is not in {@code known_hosts} is refused too.
 * User info in the URL is the source's own. The cache directory is made readable by its owner only.
 * Messages name the URL without its user info.
 */
public final class GitSourceCache implements RemoteSources {
  private static final Pattern FULL_COMMIT = Pattern.compile("[0-9a-f]{40}");
  private static final Pattern PARTIAL_COMMIT = Pattern.compile("[0-9a-f]{4,39}");
  private static final String FETCHED = "refs/livegate/source";
  private static final int TIMEOUT_SECONDS = 60;
  private static final int MAX_FILE_BYTES = 8 * 1024 * 1024;

  private static final Map<Path, Object> DIRECTORY_LOCKS = new ConcurrentHashMap<>();

  private final Path cacheDirectory;
  private final SourceAccess access;
  private final boolean reuseFetched;
  private final Path sshDirectory;
  private final Map<String, Fetch> fetches = new ConcurrentHashMap<>();
  private SshSessionFactory sshSessions;

  /**
   * @param access where fetched repositories are kept between scans (created on use), and what the
   *     fetch may reach
   */
  public GitSourceCache(SourceAccess access) {
    this(access, false, userSshDirectory());
  }

  /**
   * @param sshDirectory the SSH directory {@code ssh://} sources sign in with, in place of the
   *     user's {@code ~/.ssh}
   */
  GitSourceCache(SourceAccess access, Path sshDirectory) {
    this(access, false, sshDirectory);
  }

  private GitSourceCache(SourceAccess access, boolean reuseFetched, Path sshDirectory) {
    this.cacheDirectory = access.cache();
    this.access = access;
    this.reuseFetched = reuseFetched;
    this.sshDirectory = sshDirectory.toAbsolutePath().normalize();
  }

  private static Path userSshDirectory() {
    return Path.of(System.getProperty("user.home"), ".ssh");
  }

  /**
   * The cache as the runners use it after a scan: a (url, ref) that a scan already fetched into
   * {@code cacheDirectory} is taken as that scan fetched it, without the network, so a unit is
   * generated from the commit its scan read; one that is not there yet (a fresh task's empty cache)
   * is fetched.
   */
  public static GitSourceCache reusingFetched(SourceAccess access) {
    return new GitSourceCache(access, true, userSshDirectory());
  }

  @Override
  public SourceTree fetch(String url, String ref, String subdir) {
    requireAllowed(url);
    Fetch fetch =
        fetches.computeIfAbsent(url + "\n" + (ref == null ? "" : ref), key -> new Fetch());
    String commit = fetch.commit(url, ref);
    return files(fetch.directory, commit, subdir, url, ref);
  }

  /** One (url, ref) of this scan: fetched by the first thread that asks, remembered after. */
  private final class Fetch {
    private Path directory;
    private String commit;
    private Unavailable failure;

    synchronized String commit(String url, String ref) {
      if (commit == null && failure == null) {
        String name = hash(url + "\n" + (ref == null ? "" : ref));
        directory = cacheDirectory.resolve(name);
        // Other scans of this JVM (pull request plans beside a deployment) and other processes
        // may fetch the same (url, ref) into the same directory at the same time.
        synchronized (DIRECTORY_LOCKS.computeIfAbsent(directory, key -> new Object())) {
          try {
            // what private sources were fetched, and from where, is the operator's business only
            Files.createDirectories(
                cacheDirectory,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            try (FileChannel channel =
                    FileChannel.open(
                        cacheDirectory.resolve(name + ".lock"),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
              commit = fetchCommit(directory, url, ref, reuseFetched, transports());
            }
          } catch (Unavailable e) {
            failure = e;
          } catch (IOException e) {
            failure =
                new Unavailable("cannot use the source cache " + cacheDirectory + ": " + e, e);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
      return commit;
    }
  }

  /**
   * Refuses what the operator did not grant, before anything is fetched or read from the cache: a
   * source fetched by an earlier, allowed run is not allowed by that.
   */
  private void requireAllowed(String url) {
    URIish uri;
    try {
      uri = new URIish(url);
    } catch (java.net.URISyntaxException e) {
      throw new Unavailable("not a git URL: " + e.getMessage(), e);
    }
    String scheme = uri.getScheme() == null ? "file" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("file") && !access.allowLocal()) {
      throw new Unavailable(
          "a file:// source is a repository of this machine outside the one being deployed;"
              + " livegate fetches it only when the operator passes --allow-local-sources");
    }
    if (scheme.equals("ssh") && !access.signsInTo(uri.getHost())) {
      throw new Unavailable(
          "an ssh:// source signs in with the operator's SSH keys, which livegate uses only for the"
              + " hosts the operator lists with --source-credentials-host, and "
              + uri.getHost()
              + " is not one of them");
    }
  }

  /**
   * Gives SSH transports this cache's session factory, made on first use (the SSH classes are not
   * loaded by a scan without ssh sources).
   */
  private TransportConfigCallback transports() {
    return transport -> {
      if (transport instanceof SshTransport ssh) {
        ssh.setSshSessionFactory(sshSessions());
      }
    };
  }

  private synchronized SshSessionFactory sshSessions() {
    if (sshSessions == null) {
      sshSessions =
          new SshdSessionFactoryBuilder()
              .setHomeDirectory(sshDirectory.getParent().toFile())
              .setSshDirectory(sshDirectory.toFile())
              .build(null);
    }
    return sshSessions;
  }

  private String fetchCommit(
      Path directory, String url, String ref, boolean reuse, TransportConfigCallback transports) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new Unavailable("cannot create the source cache " + directory + ": " + e, e);
    }
    try (Git git = open(directory)) {
      Repository repository = git.getRepository();
      if (ref != null && FULL_COMMIT.matcher(ref).matches() && isCommit(repository, ref)) {
        return ref;
      }
      ObjectId fetchedBefore =
          reuse
              ? repository.resolve(
                  (ref != null && PARTIAL_COMMIT.matcher(ref).matches() ? ref : FETCHED)
                      + "^{commit}")
              : null;
      if (fetchedBefore != null) {
        return fetchedBefore.name();
      }
      Optional<String> remoteRef =
          ref == null ? Optional.of(Constants.HEAD) : advertised(url, ref, transports);
      if (remoteRef.isPresent()) {
        fetch(git, url, List.of(new RefSpec("+" + remoteRef.get() + ":" + FETCHED)), 1, transports);
      } else if (PARTIAL_COMMIT.matcher(ref).matches() || FULL_COMMIT.matcher(ref).matches()) {
        // A commit id: fetch the branches and tags in full, then look for it among them.
        fetch(
            git,
            url,
            List.of(
                new RefSpec("+refs/heads/*:refs/livegate/heads/*"),
                new RefSpec("+refs/tags/*:refs/livegate/tags/*")),
            0,
            transports);
        ObjectId found = repository.resolve(ref + "^{commit}");
        if (found == null) {
          throw new Unavailable("the remote has no branch, tag or commit " + ref);
        }
        return found.name();
      } else {
        throw new Unavailable("the remote has no branch or tag " + ref);
      }
      ObjectId fetched = repository.resolve(FETCHED + "^{commit}");
      if (fetched == null) {
        throw new Unavailable("the fetched ref is not a commit");
      }
      return fetched.name();
    } catch (IOException | GitAPIException | RuntimeException e) {
      if (e instanceof Unavailable unavailable) {
        throw unavailable;
      }
      throw new Unavailable(String.valueOf(e.getMessage()).replace(url, redact(url)), e);
    }
  }

  private static Git open(Path directory) throws GitAPIException, IOException {
    if (Files.isRegularFile(directory.resolve("HEAD"))) {
      return Git.open(directory.toFile());
    }
    return Git.init().setBare(true).setDirectory(directory.toFile()).call();
  }

  private static boolean isCommit(Repository repository, String commit) throws IOException {
    try (RevWalk walk = new RevWalk(repository)) {
      walk.parseCommit(ObjectId.fromString(commit));
      return true;
    } catch (MissingObjectException | org.eclipse.jgit.errors.IncorrectObjectTypeException e) {
      return false;
    }
  }

  /** The remote ref that {@code ref} names, as git resolves a short name: a tag, then a branch. */
  private Optional<String> advertised(String url, String ref, TransportConfigCallback transports)
      throws GitAPIException {
    Set<String> names = new HashSet<>();
    for (Ref advertised :
        Git.lsRemoteRepository()
            .setRemote(url)
            .setCredentialsProvider(credentials())
            .setTransportConfigCallback(transports)
            .setTimeout(TIMEOUT_SECONDS)
            .call()) {
      names.add(advertised.getName());
    }
    for (String candidate : List.of(ref, "refs/tags/" + ref, "refs/heads/" + ref)) {
      if (candidate.startsWith("refs/") && names.contains(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private void fetch(
      Git git, String url, List<RefSpec> refSpecs, int depth, TransportConfigCallback transports)
      throws GitAPIException {
    var fetch =
        git.fetch()
            .setRemote(url)
            .setRefSpecs(refSpecs)
            .setCredentialsProvider(credentials())
            .setTransportConfigCallback(transports)
            .setTimeout(TIMEOUT_SECONDS);
    if (depth > 0) {
      fetch.setDepth(depth);
    }
    fetch.call();
  }

  /**
   * The operator's credentials, answering only for the hosts listed in {@link SourceAccess}: asked
   * per URI, so a redirect to another host gets nothing either.
   */
  private CredentialsProvider credentials() {
    CredentialsProvider configured = CredentialsProvider.getDefault();
    CredentialsProvider operators =
        configured != null ? configured : new NetRCCredentialsProvider();
    return new CredentialsProvider() {
      @Override
      public boolean isInteractive() {
        return false;
      }

      @Override
      public boolean supports(CredentialItem... items) {
        return operators.supports(items);
      }

      @Override
      public boolean get(URIish uri, CredentialItem... items) {
        return access.signsInTo(uri.getHost()) && operators.get(uri, items);
      }
    };
  }

  private static SourceTree files(
      Path directory, String commit, String subdir, String url, String ref) {
    Map<String, byte[]> files = new HashMap<>();
    try (Repository repository = Git.open(directory.toFile()).getRepository();
        ObjectReader reader = repository.newObjectReader();
        RevWalk walk = new RevWalk(reader);
        TreeWalk treeWalk = new TreeWalk(reader)) {
      RevCommit revCommit = walk.parseCommit(ObjectId.fromString(commit));
      treeWalk.addTree(revCommit.getTree());
      treeWalk.setRecursive(true);
      while (treeWalk.next()) {
        String path = treeWalk.getPathString();
        if (treeWalk.getFileMode(0).getObjectType() == Constants.OBJ_BLOB
            && treeWalk.getFileMode(0) != FileMode.GITLINK
            && !path.equals(subdir)
            && RepoPaths.isWithin(path, subdir)) {
          byte[] bytes = reader.open(treeWalk.getObjectId(0)).getCachedBytes(MAX_FILE_BYTES);
          files.put(subdir.isEmpty() ? path : path.substring(subdir.length() + 1), bytes);
        }
      }
    } catch (IOException e) {
      throw new Unavailable("cannot read commit " + commit.substring(0, 12) + ": " + e, e);
    }
    if (files.isEmpty()) {
      throw new Unavailable(
          "commit " + commit.substring(0, 12) + " has no directory '" + subdir + "'");
    }
    return new FetchedTree(directory.toString(), Collections.unmodifiableMap(files));
  }

  /** {@code url} without the user info of an http(s) URL, which may be a token. */
  public static String redact(String url) {
    try {
      URIish uri = new URIish(url);
      String scheme = uri.getScheme();
      if (uri.getPass() != null
          || (uri.getUser() != null && scheme != null && scheme.startsWith("http"))) {
        return uri.setUser(null).setPass(null).toString();
      }
      return url;
    } catch (java.net.URISyntaxException e) {
      return url;
    }
  }

  private static String hash(String key) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new LivegateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The files of one fetched directory, held in memory as committed. */
  private record FetchedTree(String root, Map<String, byte[]> contents) implements SourceTree {
    @Override
    public Collection<String> files() {
      return contents.keySet();
    }

    @Override
    public boolean isFile(String path) {
      return contents.containsKey(path);
    }

    @Override
    public boolean isDirectory(String path) {
      return path.isEmpty()
          || contents.keySet().stream().anyMatch(file -> RepoPaths.isWithin(file, path));
    }

    @Override
    public String read(String path) {
      return new String(bytes(path), StandardCharsets.UTF_8);
    }

    @Override
    public byte[] bytes(String path) {
      byte[] bytes = contents.get(path);
      if (bytes == null) {
        throw new MissingFile(path);
      }
      return bytes.clone();
    }
  }
}
