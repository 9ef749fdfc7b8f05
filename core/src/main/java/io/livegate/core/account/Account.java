package io.livegate.core.account;

import java.util.List;

/**
 * A named group of units under a path prefix, with its voters, thresholds and roles.
 *
 * @param path the repo-relative directory that holds its units; "" for the whole repository
 * @param dependsOn the names of the accounts whose units must all finish first
 * @param planRole the role that plans assume; {@code null} when none is configured
 * @param applyRole the role that applies assume; {@code null} when none is configured
 * @param destroyDeleted whether a merge that deletes one of its units destroys the unit's resources
 *     (through plan, vote and apply); false only reports the deleted unit
 */
public record Account(
    String name,
    String path,
    List<String> dependsOn,
    List<String> voters,
    int minApprovals,
    int minRejections,
    String planRole,
    String applyRole,
    boolean destroyDeleted) {

  public Account {
    dependsOn = List.copyOf(dependsOn);
    voters = List.copyOf(voters);
  }

  /**
   * An account with no voters or roles configured, approving and rejecting on one vote, and
   * destroying the units a merge deletes; the {@code with…} methods set the rest.
   */
  public static Account of(String name, String path, List<String> dependsOn) {
    return new Account(name, path, dependsOn, List.of(), 1, 1, null, null, true);
  }

  /** This account with these voters and thresholds. */
  public Account withVotes(List<String> voters, int minApprovals, int minRejections) {
    return new Account(
        name,
        path,
        dependsOn,
        voters,
        minApprovals,
        minRejections,
        planRole,
        applyRole,
        destroyDeleted);
  }

  /** This account with these roles ({@code null} for none). */
  public Account withRoles(String planRole, String applyRole) {
    return new Account(
        name,
        path,
        dependsOn,
        voters,
        minApprovals,
        minRejections,
        planRole,
        applyRole,
        destroyDeleted);
  }
}
