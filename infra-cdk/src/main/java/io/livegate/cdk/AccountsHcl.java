package io.livegate.cdk;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.account.InvalidAccountsConfig;
import io.livegate.scan.config.AccountsFile;
import java.util.List;

/**
 * Writes the accounts as the accounts file (docs/accounts.md) that the tasks read from {@code
 * LIVEGATE_ACCOUNTS}, and reads the text back with core's own reader, so what is deployed is
 * exactly what the tasks will parse. That reader also checks what needs all accounts at once:
 * unknown dependencies, dependency cycles and shared paths.
 */
public final class AccountsHcl {
  /** The name the tasks' reader gives the text in its messages. */
  static final String SOURCE = "LIVEGATE_ACCOUNTS";

  private AccountsHcl() {}

  /**
   * The accounts file's text.
   *
   * @throws InvalidLivegateConfig naming the account when the accounts do not form a valid file
   */
  public static String render(List<AccountConfig> accounts) {
    StringBuilder text = new StringBuilder();
    for (AccountConfig account : accounts) {
      text.append("account ").append(string(account.name())).append(" {\n");
      attribute(text, "path", string(account.path()));
      attribute(text, "depends_on", list(account.dependsOn()));
      attribute(text, "voters", list(account.voters()));
      attribute(text, "min_approvals", Integer.toString(account.minApprovals()));
      attribute(text, "min_rejections", Integer.toString(account.minRejections()));
      attribute(text, "plan_role", string(account.planRoleArn()));
      attribute(text, "apply_role", string(account.applyRoleArn()));
      attribute(text, "destroy_deleted", Boolean.toString(account.destroyDeleted()));
      text.append("}\n\n");
    }
    String rendered = text.toString();
    check(rendered, accounts);
    return rendered;
  }

  private static void check(String rendered, List<AccountConfig> accounts) {
    Accounts parsed;
    try {
      parsed = AccountsFile.parse(SOURCE, rendered);
    } catch (InvalidAccountsConfig e) {
      throw new InvalidLivegateConfig("accounts: " + e.getMessage());
    }
    for (AccountConfig account : accounts) {
      Account read = parsed.get(account.name());
      boolean same =
          read.dependsOn().equals(account.dependsOn())
              && read.voters().equals(account.voters())
              && read.minApprovals() == account.minApprovals()
              && read.minRejections() == account.minRejections()
              && account.planRoleArn().equals(read.planRole())
              && account.applyRoleArn().equals(read.applyRole())
              && account.destroyDeleted() == read.destroyDeleted();
      if (!same) {
        throw new IllegalStateException(
            "account \"" + account.name() + "\" reads back differently from the accounts text");
      }
    }
  }

  private static void attribute(StringBuilder text, String name, String value) {
    text.append("  ").append(name).append(" = ").append(value).append('\n');
  }

  private static String list(List<String> values) {
    return "[" + String.join(", ", values.stream().map(AccountsHcl::string).toList()) + "]";
  }

  /** An HCL string literal: quotes, backslashes and template openers are escaped. */
  static String string(String value) {
    StringBuilder quoted = new StringBuilder("\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean templateStart =
          (c == '$' || c == '%') && i + 1 < value.length() && value.charAt(i + 1) == '{';
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\r' -> quoted.append("\\r");
        case '\t' -> quoted.append("\\t");
        default -> {
          if (c < 0x20) {
            throw new InvalidLivegateConfig(
                "accounts: a value holds a control character: " + value.replace(c, '?'));
          }
          quoted.append(c);
          if (templateStart) {
            quoted.append(c);
          }
        }
      }
    }
    return quoted.append('"').toString();
  }
}
