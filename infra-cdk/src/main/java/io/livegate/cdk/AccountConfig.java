package io.livegate.cdk;

import java.util.List;
import java.util.Objects;

/**
 * One account of the installation (docs/accounts.md): the units under {@code path}, who votes on
 * them, and the roles their plans and applies assume. The CDK app writes every account into the
 * accounts text the tasks read ({@link AccountsHcl}), and grants the roles: plan roles to the plan
 * tasks only, apply roles to the apply task only.
 *
 * @param name the account's name, referred to by {@code dependsOn}
 * @param path the repo-relative directory of its units; "" for the whole repository
 * @param dependsOn accounts whose units all finish before any of this one's start
 * @param voters the e-mail addresses that get vote links; at least one
 * @param minApprovals approvals that apply a plan (default 1, at most the number of voters)
 * @param minRejections rejections that reject it (default 1, at most the number of voters)
 * @param planRoleArn the read-only role plans assume, also for pull-request plans
 * @param applyRoleArn the role applies assume; it must differ from the plan role
 * @param destroyDeleted whether a merge that deletes one of its units destroys it through the gate
 *     (default true; false only reports it)
 */
public record AccountConfig(
    String name,
    String path,
    List<String> dependsOn,
    List<String> voters,
    int minApprovals,
    int minRejections,
    String planRoleArn,
    String applyRoleArn,
    boolean destroyDeleted) {

  public AccountConfig {
    dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
    voters = voters == null ? List.of() : List.copyOf(voters);
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds an account; the defaults are those of docs/accounts.md. */
  public static final class Builder {
    private final String name;
    private String path;
    private List<String> dependsOn = List.of();
    private List<String> voters = List.of();
    private int minApprovals = 1;
    private int minRejections = 1;
    private String planRoleArn;
    private String applyRoleArn;
    private boolean destroyDeleted = true;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    public Builder path(String path) {
      this.path = path;
      return this;
    }

    public Builder dependsOn(List<String> dependsOn) {
      this.dependsOn = dependsOn;
      return this;
    }

    public Builder voters(List<String> voters) {
      this.voters = voters;
      return this;
    }

    public Builder minApprovals(int minApprovals) {
      this.minApprovals = minApprovals;
      return this;
    }

    public Builder minRejections(int minRejections) {
      this.minRejections = minRejections;
      return this;
    }

    public Builder planRoleArn(String planRoleArn) {
      this.planRoleArn = planRoleArn;
      return this;
    }

    public Builder destroyDeleted(boolean destroyDeleted) {
      this.destroyDeleted = destroyDeleted;
      return this;
    }

    public Builder applyRoleArn(String applyRoleArn) {
      this.applyRoleArn = applyRoleArn;
      return this;
    }

    public AccountConfig build() {
      return new AccountConfig(
          name,
          path,
          dependsOn,
          voters,
          minApprovals,
          minRejections,
          planRoleArn,
          applyRoleArn,
          destroyDeleted);
    }
  }
}
