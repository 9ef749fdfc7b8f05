package io.livegate.sql.testing;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeploymentCommand;
import java.util.List;

/**
 * Two merges of one account with two voters (two approvals or one rejection decide): the first
 * deploys dns and network, then app, which depends on both; the second deploys solo.
 */
public final class TwoMerges {
  public static final String DNS = "account-0/dns";
  public static final String NETWORK = "account-0/network";
  public static final String APP = "account-0/app";
  public static final String SOLO = "account-0/solo";

  public static final Accounts ACCOUNTS =
      SyntheticDeployments.accounts(1, SyntheticDeployments.VOTERS, 2, 1);

  public static final CreateDeploymentCommand FIRST =
      command(
          1,
          ACCOUNTS,
          List.of(
              unit(DNS, "account-0", 0, List.of()),
              unit(NETWORK, "account-0", 0, List.of()),
              unit(APP, "account-0", 1, List.of(DNS, NETWORK))));

  public static final CreateDeploymentCommand SECOND =
      command(2, ACCOUNTS, List.of(unit(SOLO, "account-0", 0, List.of())));

  private TwoMerges() {}
}
