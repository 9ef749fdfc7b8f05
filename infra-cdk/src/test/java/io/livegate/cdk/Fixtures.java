package io.livegate.cdk;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Template;

/** A valid installation of two accounts, and synthesis of the stack it configures. */
final class Fixtures {
  static final String SHARED_PLAN = "arn:aws:iam::111111111111:role/livegate-plan";
  static final String SHARED_APPLY = "arn:aws:iam::111111111111:role/livegate-apply";
  static final String DEV_PLAN = "arn:aws:iam::222222222222:role/livegate-plan";
  static final String DEV_APPLY = "arn:aws:iam::222222222222:role/livegate-apply";
  static final String MAIL_FROM = "livegate@example.com";

  static final SourceTree SOURCE = SourceTree.locate(Path.of(""));

  private Fixtures() {}

  static AccountConfig.Builder shared() {
    return AccountConfig.builder("shared_services")
        .path("shared-services-account")
        .voters(List.of("platform-lead@example.com", "sre@example.com"))
        .minApprovals(2)
        .planRoleArn(SHARED_PLAN)
        .applyRoleArn(SHARED_APPLY);
  }

  static AccountConfig.Builder dev() {
    return AccountConfig.builder("dev")
        .path("dev-account")
        .dependsOn(List.of("shared_services"))
        .voters(List.of("dev-lead@example.com"))
        .planRoleArn(DEV_PLAN)
        .applyRoleArn(DEV_APPLY);
  }

  static LivegateConfig.Builder config() {
    return LivegateConfig.builder()
        .repository("acme/infrastructure-live")
        .mailFrom(MAIL_FROM)
        .accounts(List.of(shared().build(), dev().build()));
  }

  /** The stack and its template; assets are not copied, only hashed. */
  record Synthesized(LivegateStack stack, Template template) {}

  static Synthesized synth(LivegateConfig config) {
    return synth(config, Map.of());
  }

  static Synthesized synth(LivegateConfig config, Map<String, Object> context) {
    return synth(
        config, context, software.amazon.awscdk.StackProps.builder().stackName("Livegate").build());
  }

  static Synthesized synth(
      LivegateConfig config, Map<String, Object> context, software.amazon.awscdk.StackProps props) {
    java.util.Map<String, Object> all = new java.util.HashMap<>(context);
    // Hash the jars and the image context without copying them into a cloud assembly.
    all.put("aws:cdk:disable-asset-staging", true);
    App app = new App(AppProps.builder().context(all).build());
    LivegateStack stack =
        new LivegateStack(app, "Livegate", props, config.validate("test"), SOURCE);
    return new Synthesized(stack, Template.fromStack(stack));
  }
}
