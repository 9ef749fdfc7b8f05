package io.livegate.cdk;

import java.util.Map;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/** The log groups of the Lambdas, the tasks and the deploy flow: one retention for all of them. */
final class LogGroups {
  /** The retentions CloudWatch Logs accepts, in days, with CDK's names for them. */
  static final Map<Integer, String> RETENTION_DAYS =
      Map.ofEntries(
          Map.entry(1, "ONE_DAY"),
          Map.entry(3, "THREE_DAYS"),
          Map.entry(5, "FIVE_DAYS"),
          Map.entry(7, "ONE_WEEK"),
          Map.entry(14, "TWO_WEEKS"),
          Map.entry(30, "ONE_MONTH"),
          Map.entry(60, "TWO_MONTHS"),
          Map.entry(90, "THREE_MONTHS"),
          Map.entry(120, "FOUR_MONTHS"),
          Map.entry(150, "FIVE_MONTHS"),
          Map.entry(180, "SIX_MONTHS"),
          Map.entry(365, "ONE_YEAR"),
          Map.entry(400, "THIRTEEN_MONTHS"),
          Map.entry(545, "EIGHTEEN_MONTHS"),
          Map.entry(731, "TWO_YEARS"),
          Map.entry(1096, "THREE_YEARS"),
          Map.entry(1827, "FIVE_YEARS"),
          Map.entry(2192, "SIX_YEARS"),
          Map.entry(2557, "SEVEN_YEARS"),
          Map.entry(2922, "EIGHT_YEARS"),
          Map.entry(3288, "NINE_YEARS"),
          Map.entry(3653, "TEN_YEARS"));

  private LogGroups() {}

  /** CDK's retention of {@code days}, which must be one CloudWatch accepts. */
  static RetentionDays retention(int days) {
    String name = RETENTION_DAYS.get(days);
    if (name == null) {
      throw new InvalidLivegateConfig(
          "logRetentionDays " + days + " is not a CloudWatch retention");
    }
    return RetentionDays.valueOf(name);
  }

  /** A log group that goes with the stack: its entry point's logs are worth nothing without it. */
  static LogGroup create(Construct scope, String id, RetentionDays retention) {
    return LogGroup.Builder.create(scope, id)
        .retention(retention)
        .removalPolicy(RemovalPolicy.DESTROY)
        .build();
  }
}
