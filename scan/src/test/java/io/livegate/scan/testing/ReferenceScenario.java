package io.livegate.scan.testing;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import java.util.List;

/**
 * The reference scenario: two accounts, each with the units global, baz and doo (on global), bar
 * (on baz and global) and foo (on bar). dev-account depends on shared_services.
 */
public final class ReferenceScenario {
  public static final String SHARED = "shared-services-account";
  public static final String DEV = "dev-account";
  public static final String ENV = "us-west-2/env-one/";

  private ReferenceScenario() {}

  public static Accounts accounts() {
    return Accounts.of(
        List.of(
            Account.of("shared_services", SHARED, List.of()),
            Account.of("dev", DEV, List.of("shared_services"))));
  }

  /** Writes both accounts' units into {@code repo}, each with a main.tf. */
  public static TestRepo write(TestRepo repo) {
    for (String account : List.of(SHARED, DEV)) {
      repo.unit(account + "/global", "");
      repo.unit(account + "/" + ENV + "baz", dependency("global", "../../../global"));
      repo.unit(account + "/" + ENV + "doo", dependency("global", "../../../global"));
      repo.unit(
          account + "/" + ENV + "bar",
          dependency("baz", "../baz")
              + dependency("global", "${get_terragrunt_dir()}/../../../global"));
      repo.unit(account + "/" + ENV + "foo", "dependencies {\n  paths = [\"../bar\"]\n}\n");
    }
    return repo;
  }

  public static String dependency(String name, String path) {
    return "dependency \"" + name + "\" {\n  config_path = \"" + path + "\"\n}\n";
  }

  /** The unit id of {@code unit} (e.g. "bar" or "global") in {@code account}'s directory. */
  public static String unit(String account, String unit) {
    return unit.equals("global") ? account + "/global" : account + "/" + ENV + unit;
  }
}
