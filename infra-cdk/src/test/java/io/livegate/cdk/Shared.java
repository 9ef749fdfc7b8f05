package io.livegate.cdk;

import com.fasterxml.jackson.databind.JsonNode;

/** One synthesis of the fixture installation, shared by the test classes that only read it. */
final class Shared {
  private static Fixtures.Synthesized synthesized;
  private static JsonNode template;

  private Shared() {}

  static synchronized Fixtures.Synthesized synthesized() {
    if (synthesized == null) {
      synthesized = Fixtures.synth(Fixtures.config().build());
      template = Iam.JSON.valueToTree(synthesized.template().toJSON());
    }
    return synthesized;
  }

  static LivegateStack stack() {
    return synthesized().stack();
  }

  static JsonNode template() {
    synthesized();
    return template;
  }

  static Iam iam() {
    return new Iam(stack(), template());
  }
}
