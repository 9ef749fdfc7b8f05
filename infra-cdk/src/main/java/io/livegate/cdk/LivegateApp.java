package io.livegate.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;

/**
 * The CDK app that cdk.json runs. It reads the configuration from the CDK context, either inline
 * under {@value #CONFIG} or from the JSON file named by {@value #CONFIG_FILE}, and synthesizes one
 * stack, named by {@value #STACK_NAME} (default {@value #DEFAULT_STACK_NAME}).
 */
public final class LivegateApp {
  /** Context key of an inline configuration object. */
  public static final String CONFIG = "livegate";

  /** Context key of the configuration file's path, relative to the working directory. */
  public static final String CONFIG_FILE = "livegate:config";

  public static final String STACK_NAME = "livegate:stackName";
  public static final String DEFAULT_STACK_NAME = "Livegate";

  private static final ObjectMapper JSON = new ObjectMapper();

  private LivegateApp() {}

  public static void main(String[] args) {
    App app = new App();
    build(app, SourceTree.locate(Path.of("")));
    app.synth();
  }

  /** Adds the stack that {@code app}'s context configures. */
  public static LivegateStack build(App app, SourceTree source) {
    Object inline = app.getNode().tryGetContext(CONFIG);
    Object file = app.getNode().tryGetContext(CONFIG_FILE);
    LivegateConfig config;
    if (inline != null && file != null) {
      throw new InvalidLivegateConfig(
          "the CDK context sets both " + CONFIG + " and " + CONFIG_FILE + "; choose one");
    } else if (inline != null) {
      JsonNode node = inline instanceof String text ? parse(text) : JSON.valueToTree(inline);
      config = LivegateConfig.fromJson(node, "the CDK context '" + CONFIG + "'");
    } else if (file != null) {
      config = LivegateConfig.fromFile(Path.of(file.toString()));
    } else {
      throw new InvalidLivegateConfig(
          "no livegate config: pass -c "
              + CONFIG_FILE
              + "=livegate.json (a file, see infra-cdk/README.md) or set "
              + CONFIG
              + " in cdk.json's context");
    }
    Object name = app.getNode().tryGetContext(STACK_NAME);
    String stackName = name == null ? DEFAULT_STACK_NAME : name.toString();
    if (!stackName.matches("[A-Za-z][A-Za-z0-9-]{0,39}")) {
      throw new InvalidLivegateConfig(
          STACK_NAME
              + " must start with a letter and hold at most 40 letters, digits or '-', not '"
              + stackName
              + "'");
    }
    StackProps.Builder props =
        StackProps.builder().stackName(stackName).description("livegate: Terragrunt deployments");
    String account = System.getenv("CDK_DEFAULT_ACCOUNT");
    String region = System.getenv("CDK_DEFAULT_REGION");
    if (config.vpcId() != null) {
      // Looking a VPC up needs to know where: the CLI sets both from the deploying credentials.
      if (account == null || region == null) {
        throw new InvalidLivegateConfig(
            "vpcId "
                + config.vpcId()
                + " is looked up in the deploying account and region; run cdk with AWS"
                + " credentials and a region (CDK_DEFAULT_ACCOUNT, CDK_DEFAULT_REGION are unset)");
      }
      props.env(Environment.builder().account(account).region(region).build());
    }
    return new LivegateStack(app, stackName, props.build(), config, source);
  }

  private static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new InvalidLivegateConfig(
          "the CDK context '" + CONFIG + "' is not a JSON object: " + e.getMessage());
    }
  }
}
