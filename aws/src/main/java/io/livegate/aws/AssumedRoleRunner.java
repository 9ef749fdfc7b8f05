package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs terragrunt with the sessions of the role its argv names, assumed here with the task role,
 * instead of letting terragrunt assume it: terraform then holds only that role's credentials (the
 * account's plan role for a plan, its apply role for an apply), never the task role's, which may
 * read the metadb secret, write plan artifacts and answer task tokens.
 *
 * <p>A command's {@code --iam-assume-role ROLE} (see {@code RunnerArgv.TERRAGRUNT}) is taken out of
 * its argv, and its environment gets the region and {@link RoleSessions}' endpoint for ROLE
 * ({@value RoleSessions#FULL_URI} and {@value RoleSessions#AUTHORIZATION_TOKEN}), which the AWS
 * SDKs in terragrunt, terraform and its providers read credentials from and ask again before they
 * expire: an apply that outlasts one session gets the next one instead of failing mid-way. The flag
 * goes because terragrunt would otherwise assume ROLE again from ROLE's own session, which a role's
 * trust policy does not allow. A command that names no role gets no credentials at all.
 */
public final class AssumedRoleRunner implements CommandRunner {
  /** terragrunt's flag for the role to run terraform with. */
  public static final String ROLE_FLAG = "--iam-assume-role";

  private final CommandRunner runner;
  private final RoleSessions sessions;
  private final String region;

  public AssumedRoleRunner(CommandRunner runner, RoleSessions sessions, String region) {
    this.runner = runner;
    this.sessions = sessions;
    this.region = region;
  }

  @Override
  public CommandResult run(Command command) {
    List<String> argv = new ArrayList<>(command.argv());
    int flag = argv.indexOf(ROLE_FLAG);
    if (flag < 0) {
      return runner.run(command);
    }
    if (flag + 1 >= argv.size()) {
      throw new LivegateException(ROLE_FLAG + " without a role in " + command.argv());
    }
    String role = argv.get(flag + 1);
    argv.subList(flag, flag + 2).clear();
    Map<String, String> environment = new HashMap<>(command.environment());
    environment.putAll(sessions.environmentFor(role));
    environment.put("AWS_REGION", region);
    environment.put("AWS_DEFAULT_REGION", region);
    return runner.run(
        new Command(
            argv,
            command.workingDirectory(),
            environment,
            command.timeout(),
            command.pidFile(),
            command.standardInput()));
  }
}
