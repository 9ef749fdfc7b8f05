package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.core.runner.CommandRunner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * Runs terragrunt with the session of the role its argv names, assumed here with the task role,
 * instead of letting terragrunt assume it: terraform then holds only that role's credentials (the
 * account's plan role for a plan, its apply role for an apply), never the task role's, which may
 * read the metadb secret, write plan artifacts and answer task tokens.
 *
 * <p>A command's {@code --iam-assume-role ROLE} (see {@code RunnerArgv.TERRAGRUNT}) is taken out of
 * its argv, and the session's {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY} and {@code
 * AWS_SESSION_TOKEN}, with the region, are added to its environment. The flag goes because
 * terragrunt would otherwise assume ROLE again from ROLE's own session, which a role's trust policy
 * does not allow. A command that names no role gets no credentials at all. Each role is assumed
 * once per task (a session lasts an hour, the longest a role allows by default).
 */
public final class AssumedRoleRunner implements CommandRunner {
  /** terragrunt's flag for the role to run terraform with. */
  public static final String ROLE_FLAG = "--iam-assume-role";

  private final CommandRunner runner;
  private final StsClient sts;
  private final String region;
  private final String sessionName;
  private final Map<String, Map<String, String>> sessions = new ConcurrentHashMap<>();

  /**
   * @param sessionName how the sessions are named in CloudTrail (e.g. the unit's execution)
   */
  public AssumedRoleRunner(CommandRunner runner, StsClient sts, String region, String sessionName) {
    this.runner = runner;
    this.sts = sts;
    this.region = region;
    this.sessionName = sessionName;
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
    environment.putAll(sessions.computeIfAbsent(role, this::assume));
    return runner.run(
        new Command(
            argv, command.workingDirectory(), environment, command.timeout(), command.pidFile()));
  }

  private Map<String, String> assume(String role) {
    Credentials credentials;
    try {
      credentials =
          sts.assumeRole(request -> request.roleArn(role).roleSessionName(sessionName))
              .credentials();
    } catch (SdkException e) {
      throw new LivegateException("cannot assume " + role + ": " + e.getMessage(), e);
    }
    return Map.of(
        "AWS_ACCESS_KEY_ID", credentials.accessKeyId(),
        "AWS_SECRET_ACCESS_KEY", credentials.secretAccessKey(),
        "AWS_SESSION_TOKEN", credentials.sessionToken(),
        "AWS_REGION", region,
        "AWS_DEFAULT_REGION", region);
  }
}
