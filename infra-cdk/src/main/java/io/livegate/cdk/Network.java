package io.livegate.cdk;

import java.util.List;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcLookupOptions;
import software.constructs.Construct;

/**
 * The network: a VPC with NAT, because the Lambdas and tasks reach GitHub and the AWS APIs from
 * private subnets, or the installation's own VPC, found by id at synth time; and the security
 * groups of the Lambdas, the tasks and the metadb ({@link Metadb} says who reaches the last one).
 * Like every construct of the stack, it puts its resources in the stack ({@link LivegateStack} says
 * why).
 */
public final class Network extends Construct {
  /**
   * @param vpcId an existing VPC to use; {@code null} creates one
   * @param maxAzs availability zones of a created VPC
   * @param natGateways NAT gateways of a created VPC
   */
  public record Props(String vpcId, int maxAzs, int natGateways) {}

  private final IVpc vpc;
  private final SubnetSelection privateSubnets =
      SubnetSelection.builder().subnetType(SubnetType.PRIVATE_WITH_EGRESS).build();
  private final SecurityGroup lambdaSecurityGroup;
  private final SecurityGroup taskSecurityGroup;
  private final SecurityGroup metadbSecurityGroup;

  public Network(Construct scope, String id, Props props) {
    super(scope, id);
    Stack stack = Stack.of(this);
    this.vpc =
        props.vpcId() != null
            ? Vpc.fromLookup(stack, "Vpc", VpcLookupOptions.builder().vpcId(props.vpcId()).build())
            : Vpc.Builder.create(stack, "Vpc")
                .maxAzs(props.maxAzs())
                .natGateways(props.natGateways())
                .subnetConfiguration(
                    List.of(
                        SubnetConfiguration.builder()
                            .name("public")
                            .subnetType(SubnetType.PUBLIC)
                            .cidrMask(24)
                            .build(),
                        SubnetConfiguration.builder()
                            .name("private")
                            .subnetType(SubnetType.PRIVATE_WITH_EGRESS)
                            .cidrMask(22)
                            .build()))
                .build();
    this.lambdaSecurityGroup =
        securityGroup(stack, "LambdaSecurityGroup", "livegate Lambdas", true);
    this.taskSecurityGroup = securityGroup(stack, "TaskSecurityGroup", "livegate ECS tasks", true);
    this.metadbSecurityGroup =
        securityGroup(stack, "MetadbSecurityGroup", "livegate metadb", false);
  }

  public IVpc vpc() {
    return vpc;
  }

  /** The private subnets with egress, where the metadb, every Lambda and every task run. */
  public SubnetSelection privateSubnets() {
    return privateSubnets;
  }

  /** The private subnets' ids, comma-separated, as ECS RunTask takes them. */
  public String privateSubnetIds() {
    return Fn.join(",", vpc.selectSubnets(privateSubnets).getSubnetIds());
  }

  public SecurityGroup lambdaSecurityGroup() {
    return lambdaSecurityGroup;
  }

  public SecurityGroup taskSecurityGroup() {
    return taskSecurityGroup;
  }

  public SecurityGroup metadbSecurityGroup() {
    return metadbSecurityGroup;
  }

  private SecurityGroup securityGroup(
      Stack stack, String id, String description, boolean outbound) {
    return SecurityGroup.Builder.create(stack, id)
        .vpc(vpc)
        .description(description)
        .allowAllOutbound(outbound)
        .build();
  }
}
