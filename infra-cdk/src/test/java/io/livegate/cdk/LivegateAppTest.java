package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;

/** Where the app takes its configuration from, and the existing-VPC variant. */
class LivegateAppTest {
  private static App app(Map<String, Object> context) {
    java.util.Map<String, Object> all = new java.util.HashMap<>(context);
    all.put("aws:cdk:disable-asset-staging", true);
    return new App(AppProps.builder().context(all).build());
  }

  @Test
  void theConfigFileNamedInTheContextConfiguresTheStackAndItsName() {
    LivegateStack stack =
        LivegateApp.build(
            app(
                Map.of(
                    LivegateApp.CONFIG_FILE,
                    "livegate.example.json",
                    LivegateApp.STACK_NAME,
                    "Ops")),
            Fixtures.SOURCE);
    assertThat(stack.getStackName()).isEqualTo("Ops");
    assertThat(stack.lockParameterArn()).contains("parameter/Ops/merge-lock");
  }

  @Test
  void withoutAConfigTheErrorSaysHowToPassOne() {
    assertThatThrownBy(() -> LivegateApp.build(app(Map.of()), Fixtures.SOURCE))
        .isInstanceOf(InvalidLivegateConfig.class)
        .hasMessageContaining("-c livegate:config=livegate.json");
    assertThatThrownBy(
            () ->
                LivegateApp.build(
                    app(Map.of(LivegateApp.CONFIG_FILE, "missing.json")), Fixtures.SOURCE))
        .hasMessageContaining("cannot read the livegate config missing.json");
    assertThatThrownBy(
            () ->
                LivegateApp.build(
                    app(
                        Map.of(
                            LivegateApp.CONFIG_FILE,
                            "livegate.example.json",
                            LivegateApp.STACK_NAME,
                            "my_stack")),
                    Fixtures.SOURCE))
        .hasMessageContaining("livegate:stackName must start with a letter");
  }

  @Test
  void anInlineContextObjectWithABadArnNamesTheContextAndTheAccount() {
    Map<String, Object> config =
        Map.of(
            "repository", "acme/live",
            "mailFrom", "livegate@example.com",
            "accounts",
                java.util.List.of(
                    Map.of(
                        "name", "prod",
                        "path", "prod",
                        "voters", java.util.List.of("lead@example.com"),
                        "planRoleArn", "arn:aws:iam::333333333333:role/plan",
                        "applyRoleArn", "arn:aws:iam::333333333333:user/apply")));
    assertThatThrownBy(
            () -> LivegateApp.build(app(Map.of(LivegateApp.CONFIG, config)), Fixtures.SOURCE))
        .isInstanceOf(InvalidLivegateConfig.class)
        .hasMessageStartingWith("the CDK context 'livegate': accounts[0] (account \"prod\")")
        .hasMessageContaining(
            "applyRoleArn 'arn:aws:iam::333333333333:user/apply' is not an IAM role ARN");
  }

  @Test
  void anExistingVpcIsLookedUpAndNoNetworkIsCreated() {
    // What `cdk synth` with credentials caches in cdk.context.json for this lookup.
    Map<String, Object> lookup =
        Map.of(
            "vpcId",
            "vpc-0a1b2c3d4e5f60718",
            "vpcCidrBlock",
            "10.20.0.0/16",
            "availabilityZones",
            java.util.List.of(),
            "subnetGroups",
            java.util.List.of(
                Map.of(
                    "name", "Private",
                    "type", "Private",
                    "subnets",
                        java.util.List.of(
                            subnet("subnet-0aaa1111bbbb2222c", "eu-west-1a", "10.20.0.0/20"),
                            subnet("subnet-0ddd3333eeee4444f", "eu-west-1b", "10.20.16.0/20")))));
    Fixtures.Synthesized synthesized =
        Fixtures.synth(
            Fixtures.config().vpcId("vpc-0a1b2c3d4e5f60718").build(),
            Map.of(
                "vpc-provider:account=123456789012:filter.vpc-id=vpc-0a1b2c3d4e5f60718:region=eu-west-1:returnAsymmetricSubnets=true",
                lookup),
            StackProps.builder()
                .stackName("Livegate")
                .env(Environment.builder().account("123456789012").region("eu-west-1").build())
                .build());
    Template template = synthesized.template();
    template.resourceCountIs("AWS::EC2::VPC", 0);
    template.resourceCountIs("AWS::EC2::NatGateway", 0);
    template.resourceCountIs("AWS::RDS::DBCluster", 1);
    JsonNode json = Iam.JSON.valueToTree(template.toJSON());
    json.path("Resources")
        .forEach(
            resource -> {
              if (resource.path("Type").asText().equals("AWS::Lambda::Function")) {
                assertThat(resource.path("Properties").path("VpcConfig").path("SubnetIds"))
                    .extracting(JsonNode::asText)
                    .containsExactly("subnet-0aaa1111bbbb2222c", "subnet-0ddd3333eeee4444f");
              }
              if (resource.path("Type").asText().equals("AWS::EC2::SecurityGroup")) {
                assertThat(resource.path("Properties").path("VpcId").asText())
                    .isEqualTo("vpc-0a1b2c3d4e5f60718");
              }
            });
  }

  private static Map<String, Object> subnet(String id, String zone, String cidr) {
    return Map.of(
        "subnetId",
        id,
        "availabilityZone",
        zone,
        "cidr",
        cidr,
        "routeTableId",
        "rtb-0123456789abcdef0");
  }
}
