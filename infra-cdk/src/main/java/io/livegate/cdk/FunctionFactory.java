package io.livegate.cdk;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;

/**
 * Builds every livegate Lambda alike, for {@link Metadb}'s migration and the entry points of {@link
 * Functions}: Java 25 on arm64 from the Lambda jar, in the private subnets behind the Lambda
 * security group, with its own role and log group. The role starts empty; {@link Grants} gives it
 * what its entry point calls.
 */
public final class FunctionFactory {
  /**
   * One function.
   *
   * @param id the construct id, which the logical ids of the function, its role ({@code <id>Role})
   *     and its log group ({@code <id>Logs}) start with
   * @param name the entry point, as {@link LivegateStack#functions()} names it
   * @param snapStart whether published versions are SnapStart-ed; the migration runs once per
   *     deploy and gains nothing from a snapshot
   * @param functionName a fixed function name, for callers built before the function; {@code null}
   *     lets CloudFormation name it
   */
  public record Spec(
      String id,
      String name,
      String handler,
      int memoryMiB,
      Duration timeout,
      Map<String, String> environment,
      boolean snapStart,
      String functionName) {}

  private final Stack stack;
  private final Network network;
  private final String lambdaJar;
  private final RetentionDays logRetention;

  public FunctionFactory(
      Stack stack, Network network, SourceTree source, RetentionDays logRetention) {
    this.stack = stack;
    this.network = network;
    this.lambdaJar = source.lambdaJar().toString();
    this.logRetention = logRetention;
  }

  public Function create(Spec spec) {
    LogGroup logs = LogGroups.create(stack, spec.id() + "Logs", logRetention);
    Role role =
        Role.Builder.create(stack, spec.id() + "Role")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .description("livegate " + spec.name() + " Lambda")
            .build();
    Function.Builder builder =
        Function.Builder.create(stack, spec.id())
            .description("livegate " + spec.name())
            .runtime(Runtime.JAVA_25)
            .architecture(Architecture.ARM_64)
            .handler(spec.handler())
            .code(Code.fromAsset(lambdaJar))
            .memorySize(spec.memoryMiB())
            .timeout(spec.timeout())
            .environment(spec.environment())
            .role(role)
            .logGroup(logs)
            .vpc(network.vpc())
            .vpcSubnets(network.privateSubnets())
            .securityGroups(List.of(network.lambdaSecurityGroup()));
    if (spec.functionName() != null) {
      builder.functionName(spec.functionName());
    }
    if (spec.snapStart()) {
      builder.snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS);
    }
    Function function = builder.build();
    if (spec.snapStart()) {
      // CDK warns that SnapStart needs published versions: Functions' live alias publishes one per
      // change.
      Annotations.of(function)
          .acknowledgeWarning(
              "@aws-cdk/aws-lambda:snapStartRequirePublish",
              "the live alias points at the function's current published version");
    }
    return function;
  }
}
