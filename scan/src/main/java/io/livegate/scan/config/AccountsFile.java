package io.livegate.scan.config;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.account.InvalidAccountsConfig;
import io.livegate.scan.hcl.Attribute;
import io.livegate.scan.hcl.Block;
import io.livegate.scan.hcl.Evaluator;
import io.livegate.scan.hcl.HclDocument;
import io.livegate.scan.hcl.Scope;
import io.livegate.scan.hcl.StandardFunctions;
import io.livegate.scan.hcl.Unknown;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads the accounts file, an HCL file of {@code account "name" { ... }} blocks (format in
 * docs/accounts.md). Values are literals or pure functions: the file never reads the environment.
 */
public final class AccountsFile {
  private static final Set<String> ATTRIBUTES =
      Set.of(
          "path",
          "depends_on",
          "voters",
          "min_approvals",
          "min_rejections",
          "plan_role",
          "apply_role",
          "destroy_deleted");

  private AccountsFile() {}

  /**
   * @param file the file's name, for messages
   * @throws io.livegate.scan.hcl.InvalidHcl when it is not valid HCL
   * @throws InvalidAccountsConfig when an account is incomplete or inconsistent
   */
  public static Accounts parse(String file, String text) {
    HclDocument document = HclDocument.parse(file, text);
    if (!document.attributes().isEmpty()) {
      Attribute stray = document.attributes().values().iterator().next();
      throw new InvalidAccountsConfig(
          file
              + ":"
              + stray.line()
              + ": unexpected attribute '"
              + stray.name()
              + "'; accounts are account \"name\" { ... } blocks");
    }
    Evaluator evaluator = new Evaluator(new LiteralScope());
    List<Account> accounts = new ArrayList<>();
    for (Block block : document.blocks()) {
      String where = file + ":" + block.line() + ": ";
      if (!block.type().equals("account") || block.labels().size() != 1) {
        throw new InvalidAccountsConfig(
            where + "expected account \"name\" { ... }, found " + block.type());
      }
      for (String name : block.attributes().keySet()) {
        if (!ATTRIBUTES.contains(name)) {
          throw new InvalidAccountsConfig(
              where
                  + "account \""
                  + block.label()
                  + "\" has an unknown attribute '"
                  + name
                  + "' (known: "
                  + String.join(", ", ATTRIBUTES.stream().sorted().toList())
                  + ")");
        }
      }
      Values values = new Values(where + "account \"" + block.label() + "\": ", block, evaluator);
      accounts.add(
          new Account(
              block.label(),
              values.text("path", null),
              values.texts("depends_on"),
              values.texts("voters"),
              values.number("min_approvals", 1),
              values.number("min_rejections", 1),
              values.text("plan_role", null),
              values.text("apply_role", null),
              values.bool("destroy_deleted", true)));
    }
    try {
      return Accounts.of(accounts);
    } catch (InvalidAccountsConfig e) {
      throw new InvalidAccountsConfig(file + ": " + e.getMessage());
    }
  }

  private record Values(String where, Block block, Evaluator evaluator) {
    Object value(String name) {
      Object value =
          block
              .attribute(name)
              .map(attribute -> evaluator.evaluate(attribute.value()))
              .orElse(null);
      if (value instanceof Unknown unknown) {
        throw new InvalidAccountsConfig(where + name + ": " + unknown.reason());
      }
      return value;
    }

    String text(String name, String fallback) {
      Object value = value(name);
      if (value == null && fallback == null && name.equals("path")) {
        throw new InvalidAccountsConfig(where + "path is required");
      }
      if (value == null) {
        return fallback;
      }
      if (!(value instanceof String text)) {
        throw new InvalidAccountsConfig(
            where + name + " must be a string, found " + Evaluator.describe(value));
      }
      return text;
    }

    List<String> texts(String name) {
      Object value = value(name);
      if (value == null) {
        return List.of();
      }
      if (!(value instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
        throw new InvalidAccountsConfig(where + name + " must be a list of strings");
      }
      return list.stream().map(String.class::cast).toList();
    }

    boolean bool(String name, boolean fallback) {
      Object value = value(name);
      if (value == null) {
        return fallback;
      }
      if (!(value instanceof Boolean bool)) {
        throw new InvalidAccountsConfig(
            where + name + " must be true or false, found " + Evaluator.describe(value));
      }
      return bool;
    }

    int number(String name, int fallback) {
      Object value = value(name);
      if (value == null) {
        return fallback;
      }
      try {
        return ((BigDecimal) value).intValueExact();
      } catch (ClassCastException | ArithmeticException e) {
        throw new InvalidAccountsConfig(
            where + name + " must be a whole number, found " + Evaluator.describe(value));
      }
    }
  }

  /** Literals and pure functions only. */
  private static final class LiteralScope implements Scope {
    @Override
    public Object variable(String name, String file, int line) {
      return Unknown.at(file, line, "the accounts file cannot refer to '" + name + "'");
    }

    @Override
    public Object call(String function, List<Supplier<Object>> arguments, String file, int line) {
      return StandardFunctions.call(function, arguments, file, line);
    }
  }
}
