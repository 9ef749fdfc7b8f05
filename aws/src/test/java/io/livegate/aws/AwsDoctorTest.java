package io.livegate.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * How {@link AwsDoctor} reads a trust policy and an SSM parameter's ARN; the checks themselves run
 * against moto in the tests module ({@code io.livegate.tests.aws.AwsDoctorTest}).
 */
class AwsDoctorTest {
  private static final String TASK_ROLE = "arn:aws:iam::123456789012:role/Livegate-TerraRunPlan";

  private static JsonNode policy(String statements) throws Exception {
    return new ObjectMapper()
        .readTree("{\"Version\": \"2012-10-17\", \"Statement\": " + statements + "}");
  }

  @Test
  void theTaskRolesAccountRootTrustsTheTaskRole() throws Exception {
    assertThat(
            AwsDoctor.trusts(
                policy(
                    "{\"Effect\": \"Allow\", \"Action\": \"sts:AssumeRole\", \"Principal\":"
                        + " {\"AWS\": \"arn:aws:iam::123456789012:root\"}}"),
                TASK_ROLE))
        .isTrue();
  }

  @Test
  void aDenyNamingTheTaskRoleWinsOverAnAllow() throws Exception {
    assertThat(
            AwsDoctor.trusts(
                policy(
                    "[{\"Effect\": \"Allow\", \"Action\": \"sts:*\", \"Principal\": {\"AWS\":"
                        + " \"123456789012\"}}, {\"Effect\": \"Deny\", \"Action\":"
                        + " [\"sts:AssumeRole\"], \"Principal\": {\"AWS\": [\""
                        + TASK_ROLE
                        + "\"]}}]"),
                TASK_ROLE))
        .isFalse();
  }

  @Test
  void anAllowOfAnotherActionOrAnotherRoleDoesNotTrustTheTaskRole() throws Exception {
    assertThat(
            AwsDoctor.trusts(
                policy(
                    "[{\"Effect\": \"Allow\", \"Action\": \"sts:TagSession\", \"Principal\":"
                        + " {\"AWS\": \""
                        + TASK_ROLE
                        + "\"}}, {\"Effect\": \"Allow\", \"Action\": \"sts:AssumeRole\","
                        + " \"Principal\": {\"AWS\": \"arn:aws:iam::123456789012:role/other\"}}]"),
                TASK_ROLE))
        .isFalse();
  }

  @Test
  void aParameterArnNamesAHierarchicalParameterWithItsLeadingSlash() {
    assertThat(AwsDoctor.parameterName("arn:aws:ssm:eu-west-1:123456789012:parameter/a/b"))
        .isEqualTo("/a/b");
    assertThat(AwsDoctor.parameterName("arn:aws:ssm:eu-west-1:123456789012:parameter/Accounts"))
        .isEqualTo("Accounts");
    assertThat(AwsDoctor.parameterName("Accounts")).isEqualTo("Accounts");
  }
}
