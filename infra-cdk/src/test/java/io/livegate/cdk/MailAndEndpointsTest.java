package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Mail that arrives and the optional VPC endpoints, as an installation that sets {@code mailDomain}
 * and {@code vpcEndpoints} synthesizes them, against the fixture installation, which sets neither.
 * The template is also written to target/ for cfn-lint (module README).
 */
class MailAndEndpointsTest {
  private static Fixtures.Synthesized synthesized;

  private final Fixtures.Synthesized synth = synthesized();
  private final LivegateStack stack = synth.stack();
  private final JsonNode json = Iam.JSON.valueToTree(synth.template().toJSON());

  private static synchronized Fixtures.Synthesized synthesized() {
    if (synthesized == null) {
      synthesized =
          Fixtures.synth(
              Fixtures.config()
                  .mailFrom("livegate@deploys.example.com")
                  .mailDomain("example.com")
                  .vpcEndpoints(true)
                  .build());
      try {
        Path target = Files.createDirectories(Path.of("target"));
        Files.writeString(
            target.resolve("mail-and-endpoints.template.json"),
            Iam.JSON.writeValueAsString(synthesized.template().toJSON()));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return synthesized;
  }

  private JsonNode only(JsonNode template, String type) {
    Map<String, JsonNode> found = LivegateStackTest.resources(template, type);
    assertThat(found).as(type).hasSize(1);
    return found.values().iterator().next().path("Properties");
  }

  @Test
  void theDomainIsVerifiedWithDkimAndACustomMailFromAndUsesTheConfigurationSet() {
    JsonNode identity = only(json, "AWS::SES::EmailIdentity");
    assertThat(identity.path("EmailIdentity").asText()).isEqualTo("example.com");
    assertThat(identity.path("DkimAttributes").path("SigningEnabled").asBoolean()).isTrue();
    assertThat(identity.path("MailFromAttributes").path("MailFromDomain").asText())
        .isEqualTo("mail.example.com");
    assertThat(identity.path("MailFromAttributes").path("BehaviorOnMxFailure").asText())
        .isEqualTo("USE_DEFAULT_VALUE");
    String configurationSet =
        LivegateStackTest.resources(json, "AWS::SES::ConfigurationSet").keySet().iterator().next();
    assertThat(identity.path("ConfigurationSetAttributes").path("ConfigurationSetName"))
        .hasToString("{\"Ref\":\"" + configurationSet + "\"}");
    // The DNS records to publish are outputs: three DKIM CNAMEs, the MAIL FROM MX and SPF.
    List<String> outputs = new ArrayList<>();
    json.path("Outputs").fieldNames().forEachRemaining(outputs::add);
    assertThat(outputs)
        .contains(
            "MailDkimRecord1",
            "MailDkimRecord2",
            "MailDkimRecord3",
            "MailFromMxRecord",
            "MailFromSpfRecord");
    assertThat(json.path("Outputs").path("MailFromSpfRecord").path("Value").asText())
        .isEqualTo("mail.example.com TXT \"v=spf1 include:amazonses.com ~all\"");
  }

  @Test
  void bouncesComplaintsAndRejectsGoToTheOperatorsTopic() {
    JsonNode destination =
        only(json, "AWS::SES::ConfigurationSetEventDestination").path("EventDestination");
    assertThat(destination.path("Enabled").asBoolean()).isTrue();
    assertThat(destination.path("SnsDestination").path("TopicARN"))
        .isEqualTo(Iam.JSON.valueToTree(stack.resolve(stack.operatorTopic().getTopicArn())));
    List<String> events = new ArrayList<>();
    destination.path("MatchingEventTypes").forEach(event -> events.add(event.asText()));
    assertThat(events)
        .containsExactlyInAnyOrder("bounce", "complaint", "reject", "renderingFailure");
    // SES may publish to the topic for this configuration set only.
    JsonNode policy =
        LivegateStackTest.resources(json, "AWS::SNS::TopicPolicy").entrySet().stream()
            .filter(entry -> entry.getKey().startsWith("OperatorTopicPolicy"))
            .findFirst()
            .orElseThrow()
            .getValue()
            .path("Properties")
            .path("PolicyDocument");
    assertThat(policy.path("Statement").toString())
        .contains("{\"Service\":\"ses.amazonaws.com\"}")
        .contains(":configuration-set/\",{\"Ref\":\"MailConfigurationSet");
  }

  @Test
  void theVotersMailIsSentFromTheDomainIdentity() {
    String identity =
        LivegateStackTest.resources(json, "AWS::SES::EmailIdentity").keySet().iterator().next();
    assertThat(json.path("Resources").toString())
        .contains(":identity/\",{\"Ref\":\"" + identity + "\"}");
  }

  @Test
  void withEndpointsS3IsAGatewayAndTheOtherServicesAreInterfacesReachableFromLambdasAndTasks() {
    List<String> interfaces = new ArrayList<>();
    List<String> gateways = new ArrayList<>();
    LivegateStackTest.resources(json, "AWS::EC2::VPCEndpoint")
        .values()
        .forEach(
            endpoint -> {
              JsonNode properties = endpoint.path("Properties");
              String service = properties.path("ServiceName").toString();
              if ("Interface".equals(properties.path("VpcEndpointType").asText())) {
                assertThat(properties.path("PrivateDnsEnabled").asBoolean()).as(service).isTrue();
                assertThat(properties.path("SubnetIds")).as(service).hasSize(2);
                interfaces.add(service);
              } else {
                gateways.add(service);
              }
            });
    assertThat(gateways).singleElement().asString().contains(".s3");
    for (String service :
        List.of(
            ".ssm\"",
            ".sts\"",
            ".states\"",
            ".secretsmanager\"",
            ".logs\"",
            ".ecr.api\"",
            ".ecr.dkr\"")) {
      assertThat(interfaces).as(service).anySatisfy(name -> assertThat(name).contains(service));
    }
    assertThat(interfaces).hasSize(7);

    String endpointGroup =
        LivegateStackTest.resources(json, "AWS::EC2::SecurityGroup").entrySet().stream()
            .filter(
                group ->
                    group
                        .getValue()
                        .path("Properties")
                        .path("GroupDescription")
                        .asText()
                        .equals("livegate VPC endpoints"))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow();
    TreeSet<String> sources = new TreeSet<>();
    LivegateStackTest.resources(json, "AWS::EC2::SecurityGroupIngress")
        .values()
        .forEach(
            rule -> {
              JsonNode properties = rule.path("Properties");
              if (properties.path("GroupId").toString().contains("\"" + endpointGroup + "\"")) {
                assertThat(properties.path("FromPort").asInt()).isEqualTo(443);
                assertThat(properties.path("ToPort").asInt()).isEqualTo(443);
                sources.add(
                    properties
                        .path("SourceSecurityGroupId")
                        .path("Fn::GetAtt")
                        .get(0)
                        .asText()
                        // a logical id is the construct's id and a hash
                        .replaceFirst("[0-9A-F]{8}$", ""));
              }
            });
    assertThat(sources).containsExactly("LambdaSecurityGroup", "TaskSecurityGroup");
  }

  @Test
  void theFixtureInstallationHasNoEndpointsAndVerifiesTheAddressAlone() {
    JsonNode fixture = Shared.template();
    assertThat(LivegateStackTest.resources(fixture, "AWS::EC2::VPCEndpoint")).isEmpty();
    JsonNode identity = only(fixture, "AWS::SES::EmailIdentity");
    assertThat(identity.path("EmailIdentity").asText()).isEqualTo(Fixtures.MAIL_FROM);
    assertThat(identity.path("MailFromAttributes").isMissingNode()).isTrue();
    // Bounces of the address reach the operators too.
    assertThat(LivegateStackTest.resources(fixture, "AWS::SES::ConfigurationSetEventDestination"))
        .hasSize(1);
  }
}
