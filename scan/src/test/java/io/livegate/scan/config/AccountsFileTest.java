package io.livegate.scan.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.account.InvalidAccountsConfig;
import io.livegate.scan.hcl.InvalidHcl;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The accounts file: its HCL format, its checks and which account a unit belongs to. Problems with
 * one block name the file and line; problems across accounts (checked by {@link Accounts}) name the
 * accounts involved.
 */
class AccountsFileTest {
  private static final String FILE = "livegate.hcl";

  private static Accounts parse(String text) {
    return AccountsFile.parse(FILE, text);
  }

  private static final String DOCUMENTED_EXAMPLE =
      """
      account "shared_services" {
        path           = "shared-services-account"   # required
        voters         = ["platform-lead@example.com"]
        min_approvals  = 1
        min_rejections = 1
        plan_role      = "arn:aws:iam::111111111111:role/livegate-plan"
        apply_role     = "arn:aws:iam::111111111111:role/livegate-apply"
      }

      account "dev" {
        path       = "dev-account"
        depends_on = ["shared_services"]
      }
      """;

  @Test
  void documentedExampleParsesIntoItsAccounts() {
    Accounts accounts = parse(DOCUMENTED_EXAMPLE);

    assertThat(accounts.all())
        .containsExactly(
            Account.of("shared_services", "shared-services-account", List.of())
                .withVotes(List.of("platform-lead@example.com"), 1, 1)
                .withRoles(
                    "arn:aws:iam::111111111111:role/livegate-plan",
                    "arn:aws:iam::111111111111:role/livegate-apply"),
            Account.of("dev", "dev-account", List.of("shared_services")));
  }

  @Test
  void valuesMayUsePureFunctionsAndPathsAreNormalised() {
    Accounts accounts =
        parse(
            """
            account "prod" {
              path          = "./${lower("PROD")}-account/"
              voters        = concat(["a@example.com"], ["b@example.com"])
              min_approvals = 1 + 1
            }
            """);

    Account prod = accounts.get("prod");
    assertThat(prod.path()).isEqualTo("prod-account");
    assertThat(prod.voters()).containsExactly("a@example.com", "b@example.com");
    assertThat(prod.minApprovals()).isEqualTo(2);
  }

  @Test
  void unitBelongsToTheAccountWhosePathHoldsIt() {
    Accounts accounts =
        parse(
            """
            account "dev_eu"   { path = "dev/eu" }
            account "dev_euro" { path = "dev/euro" }
            account "prod"     { path = "prod" }
            """);

    assertThat(accounts.accountOf("dev/eu/app")).map(Account::name).hasValue("dev_eu");
    assertThat(accounts.accountOf("dev/eu")).map(Account::name).hasValue("dev_eu");
    assertThat(accounts.accountOf("dev/euro/app")).map(Account::name).hasValue("dev_euro");
    assertThat(accounts.accountOf("dev/europe/app")).isEmpty();
  }

  @Test
  void accountPathInsideAnotherAccountsPathIsAnErrorNamingBoth() {
    assertThatThrownBy(
            () ->
                parse(
                    """
                    account "dev"    { path = "dev" }
                    account "dev_eu" { path = "dev/eu" }
                    """))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage(
            "livegate.hcl: account \"dev_eu\" (path 'dev/eu') lies inside account \"dev\" (path"
                + " 'dev'): a unit under 'dev/eu' would belong to both. Give each account a path of"
                + " its own (move \"dev\" to sibling directories of 'dev/eu')");
  }

  @Test
  void anAccountOfTheWholeRepositoryBesideAnotherIsAnError() {
    assertThatThrownBy(
            () ->
                parse(
                    """
                    account "everything" { path = "" }
                    account "prod"       { path = "prod" }
                    """))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessageContaining(
            "account \"prod\" (path 'prod') lies inside account \"everything\" (path '', the"
                + " whole repository)");
  }

  @Test
  void unitUnderNoAccountBelongsToNone() {
    Accounts accounts = parse("account \"dev\" { path = \"dev\" }\n");

    assertThat(accounts.accountOf("dev-old/app")).isEmpty();
    assertThat(accounts.accountOf("prod/app")).isEmpty();
  }

  @Test
  void unknownAttributeIsAnErrorNamingItAndTheKnownOnes() {
    assertThatThrownBy(
            () ->
                parse(
                    "account \"dev\" {\n  path = \"dev\"\n}\n\naccount \"prod\" {\n  path = \"prod\"\n  min_approval = 2\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessageStartingWith(
            "livegate.hcl:5: account \"prod\" has an unknown attribute 'min_approval'")
        .hasMessageContaining("known: apply_role, depends_on, destroy_deleted, min_approvals");
  }

  @Test
  void destroyDeletedDefaultsToTrueAndFalseKeepsDeletedUnitsReportOnly() {
    Accounts accounts =
        parse(
            """
            account "dev"  { path = "dev" }
            account "prod" {
              path            = "prod"
              destroy_deleted = false
            }
            """);

    assertThat(accounts.get("dev").destroyDeleted()).isTrue();
    assertThat(accounts.get("prod").destroyDeleted()).isFalse();
  }

  @Test
  void destroyDeletedThatIsNotABooleanIsAnErrorNamingTheAccountAndLine() {
    assertThatThrownBy(
            () -> parse("account \"dev\" {\n  path = \"dev\"\n  destroy_deleted = \"no\"\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessageStartingWith(
            "livegate.hcl:1: account \"dev\": destroy_deleted must be true or false, found");
  }

  @Test
  void missingPathIsAnErrorNamingTheAccount() {
    assertThatThrownBy(() -> parse("account \"dev\" {\n  voters = []\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage("livegate.hcl:1: account \"dev\": path is required");
  }

  @Test
  void dependingOnAnUnknownAccountIsAnErrorListingTheAccounts() {
    assertThatThrownBy(
            () ->
                parse(
                    "account \"dev\" {\n  path = \"dev\"\n  depends_on = [\"shared\"]\n}\n"
                        + "account \"prod\" {\n  path = \"prod\"\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage(
            FILE
                + ": "
                + "account \"dev\" depends on \"shared\", which is not an account"
                + " (accounts: dev, prod)");
  }

  @Test
  void accountDependencyCycleIsAnErrorShowingTheCycle() {
    assertThatThrownBy(
            () ->
                parse(
                    """
                    account "a" {
                      path = "a"
                      depends_on = ["b"]
                    }
                    account "b" {
                      path = "b"
                      depends_on = ["c"]
                    }
                    account "c" {
                      path = "c"
                      depends_on = ["a"]
                    }
                    """))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage(FILE + ": " + "account dependency cycle: a -> b -> c -> a");
  }

  @Test
  void accountThatDependsOnItselfIsACycle() {
    assertThatThrownBy(() -> parse("account \"a\" {\n  path = \"a\"\n  depends_on = [\"a\"]\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessageContaining("account dependency cycle: a -> a");
  }

  @Test
  void duplicateAccountNamesAreAnError() {
    assertThatThrownBy(
            () ->
                parse(
                    "account \"dev\" {\n  path = \"dev\"\n}\naccount \"dev\" {\n  path = \"dev2\"\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage(FILE + ": " + "account \"dev\" is defined twice");
  }

  @Test
  void twoAccountsWithTheSamePathAreAnError() {
    assertThatThrownBy(
            () ->
                parse(
                    "account \"a\" {\n  path = \"dev\"\n}\naccount \"b\" {\n  path = \"./dev/\"\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage(FILE + ": " + "account \"b\": path 'dev' belongs to another account too");
  }

  @Test
  void pathOutsideTheRepositoryIsAnError() {
    assertThatThrownBy(() -> parse("account \"a\" {\n  path = \"../elsewhere\"\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage(FILE + ": " + "account \"a\": path '../elsewhere' is outside the repository");
  }

  @Test
  void minApprovalsThatIsNotAWholeNumberIsAnError() {
    assertThatThrownBy(() -> parse("account \"a\" {\n  path = \"a\"\n  min_approvals = 1.5\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage(
            "livegate.hcl:1: account \"a\": min_approvals must be a whole number, found the number 1.5");
    assertThatThrownBy(
            () -> parse("account \"a\" {\n  path = \"a\"\n  min_approvals = \"two\"\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessageContaining("min_approvals must be a whole number, found the string \"two\"");
  }

  @Test
  void minApprovalsBelowOneIsAnError() {
    assertThatThrownBy(() -> parse("account \"a\" {\n  path = \"a\"\n  min_rejections = 0\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessageContaining("account \"a\": min_approvals and min_rejections must be at least 1");
  }

  @Test
  void wrongTypesAreErrorsNamingTheAttribute() {
    assertThatThrownBy(() -> parse("account \"a\" {\n  path = [\"a\"]\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage("livegate.hcl:1: account \"a\": path must be a string, found a list");
    assertThatThrownBy(
            () -> parse("account \"a\" {\n  path = \"a\"\n  voters = \"me@example.com\"\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage("livegate.hcl:1: account \"a\": voters must be a list of strings");
  }

  @Test
  void fileThatReadsTheEnvironmentOrOtherNamesIsAnError() {
    assertThatThrownBy(() -> parse("account \"a\" {\n  path = get_env(\"HOME\")\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessageContaining("account \"a\": path: livegate.hcl:2")
        .hasMessageContaining("get_env()");
    assertThatThrownBy(() -> parse("account \"a\" {\n  path = local.dir\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessageContaining("the accounts file cannot refer to 'local'");
  }

  @Test
  void strayAttributesAndOtherBlocksAreErrors() {
    assertThatThrownBy(() -> parse("default_voters = []\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessageStartingWith("livegate.hcl:1: unexpected attribute 'default_voters'");
    assertThatThrownBy(() -> parse("account \"a\" {\n  path = \"a\"\n}\nteam \"x\" {}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage("livegate.hcl:4: expected account \"name\" { ... }, found team");
    assertThatThrownBy(() -> parse("account {\n  path = \"a\"\n}\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage("livegate.hcl:1: expected account \"name\" { ... }, found account");
  }

  @Test
  void emptyFileIsAnError() {
    assertThatThrownBy(() -> parse("# nothing yet\n"))
        .isInstanceOf(InvalidAccountsConfig.class)
        .hasMessage(FILE + ": " + "no accounts are configured");
  }

  @Test
  void unparsableFileIsInvalidHclNamingTheLine() {
    assertThatThrownBy(() -> parse("account \"a\" {\n  path = \"a\"\n"))
        .isInstanceOf(InvalidHcl.class)
        .hasMessage("livegate.hcl:1: '{' of block 'account' is never closed (missing '}')");
  }
}
