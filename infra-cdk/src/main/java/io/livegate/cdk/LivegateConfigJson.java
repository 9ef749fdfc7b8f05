package io.livegate.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a {@link LivegateConfig} from JSON: the config file, or an object in the CDK context.
 * Unknown fields are errors, so a typo is never a silent default, and a value of the wrong type
 * names its field.
 */
final class LivegateConfigJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LivegateConfigJson() {}

  /** Reads a JSON config file (format in the module README). */
  static LivegateConfig read(Path file) {
    JsonNode node;
    try {
      node = JSON.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new InvalidLivegateConfig(
          "cannot read the livegate config " + file + ": " + e.getMessage());
    }
    return read(node, file.toString());
  }

  /** Reads and validates the configuration in {@code node}, which came from {@code source}. */
  static LivegateConfig read(JsonNode node, String source) {
    if (node == null || !node.isObject()) {
      throw new InvalidLivegateConfig(source + ": the livegate config must be a JSON object");
    }
    Fields fields = new Fields(node, source + ": ");
    LivegateConfig.Builder builder = LivegateConfig.builder();
    fields.text("repository").ifPresent(builder::repository);
    fields.text("repositoryUrl").ifPresent(builder::repositoryUrl);
    fields.text("trunk").ifPresent(builder::trunk);
    fields.text("mailFrom").ifPresent(builder::mailFrom);
    fields.text("lockParameter").ifPresent(builder::lockParameter);
    fields.text("lockScope").ifPresent(builder::lockScope);
    fields.flag("allowForkPrs").ifPresent(builder::allowForkPrs);
    fields.text("scan").ifPresent(builder::scan);
    fields.text("runner").ifPresent(builder::runner);
    fields.text("failurePolicy").ifPresent(builder::failurePolicy);
    fields.duration("approvalTimeout").ifPresent(builder::approvalTimeout);
    fields.duration("flowTimeout").ifPresent(builder::flowTimeout);
    fields.flag("skipEmpty").ifPresent(builder::skipEmpty);
    fields.text("vpcId").ifPresent(builder::vpcId);
    fields.whole("maxAzs").ifPresent(builder::maxAzs);
    fields.whole("natGateways").ifPresent(builder::natGateways);
    fields.number("dbMinCapacity").ifPresent(builder::dbMinCapacity);
    fields.number("dbMaxCapacity").ifPresent(builder::dbMaxCapacity);
    fields.flag("dbDeletionProtection").ifPresent(builder::dbDeletionProtection);
    fields.whole("logRetentionDays").ifPresent(builder::logRetentionDays);
    fields.whole("planRetentionDays").ifPresent(builder::planRetentionDays);
    fields.whole("taskCpu").ifPresent(builder::taskCpu);
    fields.whole("taskMemoryMiB").ifPresent(builder::taskMemoryMiB);
    fields.text("driftSchedule").ifPresent(builder::driftSchedule);
    fields.flag("driftReconcile").ifPresent(builder::driftReconcile);
    fields.text("moduleSourcesTokenSecretArn").ifPresent(builder::moduleSourcesTokenSecretArn);
    fields.text("moduleSourcesHost").ifPresent(builder::moduleSourcesHost);
    fields.texts("alarmEmails").ifPresent(builder::alarmEmails);
    fields.duration("scanTimeout").ifPresent(builder::scanTimeout);
    fields.duration("lockAlarmAfter").ifPresent(builder::lockAlarmAfter);
    fields.duration("roleSessionDuration").ifPresent(builder::roleSessionDuration);
    fields.whole("functionUrlConcurrency").ifPresent(builder::functionUrlConcurrency);
    fields.text("mailDomain").ifPresent(builder::mailDomain);
    fields.flag("vpcEndpoints").ifPresent(builder::vpcEndpoints);
    fields.text("taskImage").ifPresent(builder::taskImage);
    RunnerTools defaults = RunnerTools.DEFAULT;
    builder.tools(
        RunnerTools.of(
            fields.text("terraformVersion").orElse(defaults.terraformVersion()),
            fields.text("terraformSha256").orElse(null),
            fields.text("terragruntVersion").orElse(defaults.terragruntVersion()),
            fields.text("terragruntSha256").orElse(null)));
    JsonNode accounts = fields.take("accounts");
    if (accounts != null) {
      if (!accounts.isArray()) {
        throw new InvalidLivegateConfig(source + ": accounts must be a list of accounts");
      }
      List<AccountConfig> read = new ArrayList<>();
      for (int i = 0; i < accounts.size(); i++) {
        read.add(account(accounts.get(i), source + ": accounts[" + i + "]."));
      }
      builder.accounts(read);
    }
    fields.rejectRest();
    return builder.build().validate(source);
  }

  private static AccountConfig account(JsonNode node, String at) {
    if (!node.isObject()) {
      throw new InvalidLivegateConfig(at.substring(0, at.length() - 1) + " must be an object");
    }
    Fields fields = new Fields(node, at);
    AccountConfig.Builder account =
        AccountConfig.builder(
            fields
                .text("name")
                .orElseThrow(() -> new InvalidLivegateConfig(at + "name is required")));
    fields.text("path").ifPresent(account::path);
    fields.texts("dependsOn").ifPresent(account::dependsOn);
    fields.texts("voters").ifPresent(account::voters);
    fields.whole("minApprovals").ifPresent(account::minApprovals);
    fields.whole("minRejections").ifPresent(account::minRejections);
    fields.text("planRoleArn").ifPresent(account::planRoleArn);
    fields.text("applyRoleArn").ifPresent(account::applyRoleArn);
    fields.flag("destroyDeleted").ifPresent(account::destroyDeleted);
    fields.rejectRest();
    return account.build();
  }

  /** The fields of one JSON object, each taken once; what is left over is a typo. */
  private static final class Fields {
    private final JsonNode node;
    private final String at;
    private final Set<String> taken = new TreeSet<>();

    Fields(JsonNode node, String at) {
      this.node = node;
      this.at = at;
    }

    JsonNode take(String name) {
      taken.add(name);
      JsonNode value = node.get(name);
      return value == null || value.isNull() ? null : value;
    }

    Optional<String> text(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return Optional.empty();
      }
      if (!value.isTextual()) {
        throw new InvalidLivegateConfig(at + name + " must be a string, not " + value);
      }
      return Optional.of(value.asText());
    }

    Optional<List<String>> texts(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return Optional.empty();
      }
      List<String> texts = new ArrayList<>();
      if (value.isArray()) {
        for (JsonNode element : value) {
          if (!element.isTextual()) {
            texts = null;
            break;
          }
          texts.add(element.asText());
        }
      } else {
        texts = null;
      }
      if (texts == null) {
        throw new InvalidLivegateConfig(at + name + " must be a list of strings, not " + value);
      }
      return Optional.of(texts);
    }

    Optional<Boolean> flag(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return Optional.empty();
      }
      if (!value.isBoolean()) {
        throw new InvalidLivegateConfig(at + name + " must be true or false, not " + value);
      }
      return Optional.of(value.asBoolean());
    }

    Optional<Integer> whole(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return Optional.empty();
      }
      if (!value.isIntegralNumber() || !value.canConvertToInt()) {
        throw new InvalidLivegateConfig(at + name + " must be a whole number, not " + value);
      }
      return Optional.of(value.asInt());
    }

    Optional<Double> number(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return Optional.empty();
      }
      if (!value.isNumber()) {
        throw new InvalidLivegateConfig(at + name + " must be a number, not " + value);
      }
      return Optional.of(value.asDouble());
    }

    Optional<Duration> duration(String name) {
      return text(name)
          .map(
              value -> {
                try {
                  return Duration.parse(value.toUpperCase(Locale.ROOT));
                } catch (DateTimeParseException e) {
                  throw new InvalidLivegateConfig(
                      at
                          + name
                          + " must be an ISO-8601 duration such as P3D or PT12H, not "
                          + value);
                }
              });
    }

    void rejectRest() {
      for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!taken.contains(name)) {
          throw new InvalidLivegateConfig(
              at + "unknown field '" + name + "' (known: " + String.join(", ", taken) + ")");
        }
      }
    }
  }
}
