package io.livegate.statemachine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.LivegateException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deploy flow's Step Functions definition ({@value #RESOURCE}) and every name it shares with
 * the trigger, the approval Lambdas, terra-run and the CDK app. The state names are {@link
 * io.livegate.core.flow.FlowState}'s, which the local executor uses too.
 *
 * <p>The definition holds {@code ${Name}} placeholders, each a {@link Substitution}, in string
 * positions only, so the file itself is valid ASL that {@code asl-validator} checks in the build.
 * CDK passes the same names as {@code definitionSubstitutions}; {@link #render} does it for tests.
 */
public final class DeployFlow {
  /** The classpath resource of the definition, next to this class. */
  public static final String RESOURCE = "deploy-flow.asl.json";

  /** The container of the terra-run task definitions that Plan and Apply override. */
  public static final String TERRA_RUN = "terra-run";

  /**
   * terra-run's modes: its container command is {@code terra-run plan} or {@code terra-run apply}.
   */
  public static final String PLAN_MODE = "plan";

  public static final String APPLY_MODE = "apply";

  /** The environment that Plan and Apply pass to terra-run. */
  public static final String EXECUTION_ID_ENV = "LIVEGATE_EXECUTION_ID";

  public static final String TASK_TOKEN_ENV = "LIVEGATE_TASK_TOKEN";

  /**
   * The error a task reports for a failure worth retrying (a clone that timed out, a throttled
   * upload); any other error name goes to Failed at once.
   */
  public static final String TRANSIENT_ERROR = "livegate.Transient";

  /**
   * The error the trigger fails a Plan task's token with when the task stopped before it answered
   * (killed, out of memory, image not pulled, Fargate capacity reclaimed). A plan changes nothing,
   * so Plan runs once more before it fails.
   */
  public static final String TASK_STOPPED_ERROR = "livegate.TaskStopped";

  /**
   * RunTask's answer when the subnets or security groups are momentarily refused (ENI throttling,
   * an exhausted subnet): no task started, so Plan and Apply start it again.
   */
  public static final String ECS_INVALID_PARAMETER = "ECS.InvalidParameterException";

  /**
   * The task result of RequestApproval holds the decision in this field: {"decision": "approved"}.
   */
  public static final String DECISION_FIELD = "decision";

  /** The error name terra-run reports when a plan fails. */
  public static final String PLAN_FAILED_ERROR = "livegate.PlanFailed";

  /** The placeholders of the definition. */
  public enum Substitution {
    CLUSTER_ARN("ClusterArn"),
    /**
     * Plan's task definition. Its task role may assume the accounts' plan roles and nothing else.
     */
    TERRA_RUN_PLAN_TASK_DEFINITION_ARN("TerraRunPlanTaskDefinitionArn"),
    /**
     * Apply's task definition: the same image, with a task role that may assume the accounts' apply
     * roles. Two definitions keep the apply roles out of every plan.
     */
    TERRA_RUN_APPLY_TASK_DEFINITION_ARN("TerraRunApplyTaskDefinitionArn"),
    TERRA_RUN_CONTAINER_NAME("TerraRunContainerName"),
    SUBNET_IDS("SubnetIds"),
    SECURITY_GROUP_IDS("SecurityGroupIds"),
    APPROVAL_TOPIC_ARN("ApprovalTopicArn");

    private final String placeholder;

    Substitution(String placeholder) {
      this.placeholder = placeholder;
    }

    /** The name inside {@code ${…}}, as CDK's definitionSubstitutions key. */
    public String placeholder() {
      return placeholder;
    }
  }

  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z]+)}");

  private DeployFlow() {}

  /** The definition as it is stored, placeholders included. */
  public static String template() {
    try (InputStream in = DeployFlow.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the statemachine jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }

  /**
   * The definition with every placeholder replaced. A value is inserted inside a JSON string, so it
   * may hold neither quotes, backslashes nor control characters; list values are comma-separated.
   *
   * @param flowTimeoutSeconds the whole execution's limit, after which its status is TIMED_OUT
   */
  public static String render(Map<Substitution, String> values, long flowTimeoutSeconds) {
    EnumMap<Substitution, String> all = new EnumMap<>(Substitution.class);
    all.putAll(values);
    for (Substitution substitution : Substitution.values()) {
      String value = all.get(substitution);
      if (value == null || value.isBlank()) {
        throw new LivegateException(
            "the deploy flow needs a value for " + substitution.placeholder);
      }
      if (!value.chars().allMatch(c -> c >= 0x20 && c != '"' && c != '\\' && c != '\'')) {
        throw new LivegateException(
            "the value for " + substitution.placeholder + " holds a quote or control character");
      }
    }
    if (flowTimeoutSeconds < 1) {
      throw new LivegateException("the deploy flow's timeout must be at least one second");
    }
    Matcher matcher = PLACEHOLDER.matcher(template());
    StringBuilder rendered = new StringBuilder();
    while (matcher.find()) {
      Substitution substitution = byPlaceholder(matcher.group(1));
      matcher.appendReplacement(rendered, Matcher.quoteReplacement(all.get(substitution)));
    }
    matcher.appendTail(rendered);
    ObjectNode definition = FlowJson.object(rendered.toString(), RESOURCE);
    definition.put("TimeoutSeconds", flowTimeoutSeconds);
    return definition.toString();
  }

  private static Substitution byPlaceholder(String name) {
    for (Substitution substitution : Substitution.values()) {
      if (substitution.placeholder.equals(name)) {
        return substitution;
      }
    }
    throw new IllegalStateException(RESOURCE + " has an unknown placeholder ${" + name + "}");
  }
}
