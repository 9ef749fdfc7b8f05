package io.livegate.cdk;

import java.util.List;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.InterfaceVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.InterfaceVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.Port;
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
   * @param endpoints whether the VPC gets endpoints for the AWS services livegate calls ({@link
   *     #INTERFACE_ENDPOINTS}, and S3 as a gateway), so those calls and image pulls skip the NAT
   */
  public record Props(String vpcId, int maxAzs, int natGateways, boolean endpoints) {}

  /**
   * What the Lambdas and tasks call inside AWS: SSM (the lock), STS (account roles), Step
   * Functions, Secrets Manager, CloudWatch Logs, and ECR's API and registry for the image pull (its
   * layers come from S3, through the gateway endpoint).
   */
  static final List<InterfaceVpcEndpointAwsService> INTERFACE_ENDPOINTS =
      List.of(
          InterfaceVpcEndpointAwsService.SSM,
          InterfaceVpcEndpointAwsService.STS,
          InterfaceVpcEndpointAwsService.STEP_FUNCTIONS,
          InterfaceVpcEndpointAwsService.SECRETS_MANAGER,
          InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS,
          InterfaceVpcEndpointAwsService.ECR,
          InterfaceVpcEndpointAwsService.ECR_DOCKER);

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
    if (props.endpoints()) {
      endpoints(stack);
    }
  }

  /**
   * S3 as a gateway endpoint (free) on the private subnets' route tables; each interface endpoint
   * in the private subnets with private DNS, so the SDKs' default hostnames resolve to it, and
   * reachable on 443 from the Lambdas and tasks only.
   */
  private void endpoints(Stack stack) {
    vpc.addGatewayEndpoint(
        "S3Endpoint",
        GatewayVpcEndpointOptions.builder()
            .service(GatewayVpcEndpointAwsService.S3)
            .subnets(List.of(privateSubnets))
            .build());
    SecurityGroup endpoints =
        securityGroup(stack, "EndpointSecurityGroup", "livegate VPC endpoints", false);
    for (SecurityGroup caller : List.of(lambdaSecurityGroup, taskSecurityGroup)) {
      endpoints.addIngressRule(caller, Port.tcp(443), "HTTPS from " + caller.getNode().getId());
    }
    for (InterfaceVpcEndpointAwsService service : INTERFACE_ENDPOINTS) {
      vpc.addInterfaceEndpoint(
          endpointId(service),
          InterfaceVpcEndpointOptions.builder()
              .service(service)
              .subnets(privateSubnets)
              .privateDnsEnabled(true)
              .securityGroups(List.of(endpoints))
              .build());
    }
  }

  /** {@code SsmEndpoint}, {@code EcrDockerEndpoint}: from the service's short name. */
  private static String endpointId(InterfaceVpcEndpointAwsService service) {
    StringBuilder id = new StringBuilder();
    for (String part : service.getShortName().split("[.-]")) {
      id.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return id + "Endpoint";
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
