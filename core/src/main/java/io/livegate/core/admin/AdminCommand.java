package io.livegate.core.admin;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * One operator command with its arguments: a {@code livegate admin} subcommand, or {@code livegate
 * status} (which on AWS reads through the admin Lambda too). Each record checks its own fields, so
 * a command that exists is one that can be run, whichever runtime it came from (the command line or
 * the admin Lambda's request).
 */
public sealed interface AdminCommand {
  /** The subcommand's name, as typed after {@code livegate admin}. */
  String name();

  /** The longest reason an abort records. */
  int MAX_REASON = 500;

  /** What holds each repository's merge lock, and what waits behind it. */
  record Queue() implements AdminCommand {
    public static final String NAME = "queue";

    @Override
    public String name() {
      return NAME;
    }
  }

  /** Launch again the scan of a deployment that holds the lock without its stack. */
  record RetryScan(long deployment) implements AdminCommand {
    public static final String NAME = "retry-scan";

    public RetryScan {
      positive("deployment", deployment);
    }

    @Override
    public String name() {
      return NAME;
    }
  }

  /** Abort a running deployment; the next merge takes the lock. */
  record Abort(long deployment, String reason) implements AdminCommand {
    public static final String NAME = "abort";
    public static final String NO_REASON = "no reason given";

    public Abort {
      positive("deployment", deployment);
      if (reason == null || reason.isBlank()) {
        throw new InvalidAdminCommand("reason must be a text, not empty");
      }
      if (reason.length() > MAX_REASON) {
        throw new InvalidAdminCommand(
            "reason is " + reason.length() + " characters long; at most " + MAX_REASON);
      }
    }

    @Override
    public String name() {
      return NAME;
    }
  }

  /** Release a merge lock that no unfinished deployment holds. */
  record ReleaseLock(String repository) implements AdminCommand {
    public static final String NAME = "release-lock";
    private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+");

    public ReleaseLock {
      if (repository == null || !REPOSITORY.matcher(repository).matches()) {
        throw new InvalidAdminCommand(
            "repository must be OWNER/NAME, not " + (repository == null ? "nothing" : repository));
      }
    }

    @Override
    public String name() {
      return NAME;
    }
  }

  /** A failed rollback was repaired by hand: its deployment fails and passes the lock on. */
  record ResolveRollback(long execution) implements AdminCommand {
    public static final String NAME = "resolve-rollback";

    public ResolveRollback {
      positive("execution", execution);
    }

    @Override
    public String name() {
      return NAME;
    }
  }

  /**
   * {@code livegate status}: every deployment, or only {@code deployment}; as text or as JSON; or
   * the kept log of one unit ({@code log}) of that deployment. It only reads ({@link ReadStatus}).
   */
  record Status(OptionalLong deployment, boolean json, Optional<String> log)
      implements AdminCommand {
    public static final String NAME = "status";

    public Status {
      deployment.ifPresent(id -> positive("deployment", id));
      if (log.isPresent()) {
        if (deployment.isEmpty()) {
          throw new InvalidAdminCommand(
              "a unit's log is read from one deployment: give its id with the unit");
        }
        if (json) {
          throw new InvalidAdminCommand("a log is plain text: ask for it without JSON");
        }
        if (log.get().isBlank() || log.get().length() > MAX_REASON) {
          throw new InvalidAdminCommand(
              "the unit whose log to show must be a path of 1 to " + MAX_REASON + " characters");
        }
      }
    }

    @Override
    public String name() {
      return NAME;
    }
  }

  private static void positive(String field, long id) {
    if (id <= 0) {
      throw new InvalidAdminCommand(field + " must be a positive id, not " + id);
    }
  }
}
