package io.livegate.core.pr;

import io.livegate.core.deploy.PlanSummary;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Plans one unit of a checked-out repository with the plan role, and never applies: the runtimes
 * implement it with terraform or terragrunt run as processes.
 */
@FunctionalInterface
public interface UnitPlanner {
  /**
   * How a plan ended: a summary and the plan's text, or an error.
   *
   * @param error {@code null} when the plan succeeded
   */
  record Outcome(PlanSummary summary, String text, String error) {
    public static Outcome planned(PlanSummary summary, String text) {
      return new Outcome(Objects.requireNonNull(summary, "summary"), text, null);
    }

    public static Outcome failed(String error) {
      return new Outcome(null, "", Objects.requireNonNull(error, "error"));
    }

    public boolean succeeded() {
      return error == null;
    }
  }

  /**
   * @param planRole the account's plan role, or {@code null} when none is configured
   * @param planName a file-name-safe name for the plan file, unique per pull request and unit
   */
  Outcome plan(Path repositoryRoot, String unit, String planRole, String planName);
}
