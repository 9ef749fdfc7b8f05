package io.livegate.statemachine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.admin.AdminCommand;
import io.livegate.core.admin.AdminResult;
import io.livegate.core.admin.Console;
import io.livegate.core.admin.InvalidAdminCommand;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The admin Lambda's request and answer, small JSON documents that {@code livegate admin --aws}
 * sends and reads:
 *
 * <ul>
 *   <li>request: {@code {"command": "abort", "deployment": 12, "reason": "..."}}; {@code "queue"}
 *       takes nothing, {@code "retry-scan"} a {@code deployment}, {@code "release-lock"} a {@code
 *       repository}, {@code "resolve-rollback"} an {@code execution}, {@code "status"} an optional
 *       {@code deployment}, {@code json} (true or false) and {@code log} (a unit's path), {@code
 *       "page"} a console {@code path} and {@code fragment} (true or false), for {@code livegate ui
 *       --aws}; both only read;
 *   <li>answer: {@code {"lines": ["..."], "done": true}}, for a page {@code {"status": 200,
 *       "contentType": "text/html; charset=utf-8", "body": "...", "live": false}}, or {@code
 *       {"error": "..."}} for a request that could not be run (its fields named).
 * </ul>
 *
 * A field the command does not take is an error, so a request is never half understood.
 */
public final class AdminCall {
  public static final String COMMAND = "command";
  public static final String DEPLOYMENT = "deployment";
  public static final String EXECUTION = "execution";
  public static final String REPOSITORY = "repository";
  public static final String REASON = "reason";
  public static final String JSON = "json";
  public static final String LOG = "log";
  public static final String PAGE = "page";
  public static final String PATH = "path";
  public static final String FRAGMENT = "fragment";
  public static final String STATUS = "status";
  public static final String CONTENT_TYPE = "contentType";
  public static final String BODY = "body";
  public static final String LIVE = "live";
  public static final String LINES = "lines";
  public static final String DONE = "done";
  public static final String ERROR = "error";

  private static final List<String> COMMANDS =
      List.of(
          AdminCommand.Queue.NAME,
          AdminCommand.RetryScan.NAME,
          AdminCommand.Abort.NAME,
          AdminCommand.ReleaseLock.NAME,
          AdminCommand.ResolveRollback.NAME,
          AdminCommand.Status.NAME,
          PAGE);

  /** The longest console path a page request may name; the console's own are far shorter. */
  public static final int MAX_PATH = 200;

  /**
   * A request for the console's page at {@code path} (its main part only with {@code fragment}).
   */
  public record PageRequest(String path, boolean fragment) {}

  private AdminCall() {}

  /** The request for {@code command}. */
  public static ObjectNode request(AdminCommand command) {
    ObjectNode request = FlowJson.MAPPER.createObjectNode().put(COMMAND, command.name());
    if (command instanceof AdminCommand.RetryScan retry) {
      request.put(DEPLOYMENT, retry.deployment());
    } else if (command instanceof AdminCommand.Abort abort) {
      request.put(DEPLOYMENT, abort.deployment()).put(REASON, abort.reason());
    } else if (command instanceof AdminCommand.ReleaseLock release) {
      request.put(REPOSITORY, release.repository());
    } else if (command instanceof AdminCommand.ResolveRollback resolve) {
      request.put(EXECUTION, resolve.execution());
    } else if (command instanceof AdminCommand.Status status) {
      status.deployment().ifPresent(id -> request.put(DEPLOYMENT, id));
      request.put(JSON, status.json());
      status.log().ifPresent(unit -> request.put(LOG, unit));
    }
    return request;
  }

  /** The command a request asks for; an {@link InvalidAdminCommand} naming the field if none. */
  public static AdminCommand command(JsonNode request) {
    JsonNode name = request.get(COMMAND);
    if (name == null || !name.isTextual()) {
      throw new InvalidAdminCommand(
          "the request names no command: expected \"command\", one of " + COMMANDS);
    }
    switch (name.asText()) {
      case AdminCommand.Queue.NAME -> {
        onlyFields(request, Set.of());
        return new AdminCommand.Queue();
      }
      case AdminCommand.RetryScan.NAME -> {
        onlyFields(request, Set.of(DEPLOYMENT));
        return new AdminCommand.RetryScan(id(request, DEPLOYMENT));
      }
      case AdminCommand.Abort.NAME -> {
        onlyFields(request, Set.of(DEPLOYMENT, REASON));
        JsonNode reason = request.path(REASON);
        if (!reason.isMissingNode() && !reason.isTextual()) {
          throw new InvalidAdminCommand("reason must be a text, not " + reason);
        }
        return new AdminCommand.Abort(
            id(request, DEPLOYMENT), reason.asText(AdminCommand.Abort.NO_REASON));
      }
      case AdminCommand.ReleaseLock.NAME -> {
        onlyFields(request, Set.of(REPOSITORY));
        JsonNode repository = request.path(REPOSITORY);
        if (!repository.isTextual()) {
          throw new InvalidAdminCommand("repository must be a text OWNER/NAME, not " + repository);
        }
        return new AdminCommand.ReleaseLock(repository.asText());
      }
      case AdminCommand.ResolveRollback.NAME -> {
        onlyFields(request, Set.of(EXECUTION));
        return new AdminCommand.ResolveRollback(id(request, EXECUTION));
      }
      case AdminCommand.Status.NAME -> {
        onlyFields(request, Set.of(DEPLOYMENT, JSON, LOG));
        JsonNode json = request.path(JSON);
        if (!json.isMissingNode() && !json.isBoolean()) {
          throw new InvalidAdminCommand("json must be true or false, not " + json);
        }
        JsonNode log = request.path(LOG);
        if (!log.isMissingNode() && !log.isTextual()) {
          throw new InvalidAdminCommand("log must be a text (a unit's path), not " + log);
        }
        return new AdminCommand.Status(
            request.has(DEPLOYMENT)
                ? OptionalLong.of(id(request, DEPLOYMENT))
                : OptionalLong.empty(),
            json.asBoolean(false),
            log.isMissingNode() ? Optional.empty() : Optional.of(log.asText()));
      }
      case PAGE ->
          throw new InvalidAdminCommand(
              "page is a request for a console page, not a command: read it with pageRequest");
      default ->
          throw new InvalidAdminCommand(
              "unknown command " + name + ": expected one of " + COMMANDS);
    }
  }

  /** The request for the console's page at {@code path}. */
  public static ObjectNode request(PageRequest page) {
    return FlowJson.MAPPER
        .createObjectNode()
        .put(COMMAND, PAGE)
        .put(PATH, page.path())
        .put(FRAGMENT, page.fragment());
  }

  /**
   * The page {@code request} asks for, or empty when it asks for a command; an {@link
   * InvalidAdminCommand} naming the field when it is a page request that is not one.
   */
  public static Optional<PageRequest> pageRequest(JsonNode request) {
    if (!PAGE.equals(request.path(COMMAND).textValue())) {
      return Optional.empty();
    }
    onlyFields(request, Set.of(PATH, FRAGMENT));
    JsonNode path = request.path(PATH);
    // A path of printable characters under "/": what a browser asks the local server for.
    if (!path.isTextual()
        || !path.asText().startsWith("/")
        || path.asText().length() > MAX_PATH
        || !path.asText().chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new InvalidAdminCommand(
          "path must be a console path (\"/\", \"/deployments/12\", at most "
              + MAX_PATH
              + " printable characters), not "
              + path);
    }
    JsonNode fragment = request.path(FRAGMENT);
    if (!fragment.isBoolean()) {
      throw new InvalidAdminCommand("fragment must be true or false, not " + fragment);
    }
    return Optional.of(new PageRequest(path.asText(), fragment.asBoolean()));
  }

  /** The answer carrying the console's {@code page}. */
  public static ObjectNode answer(Console.Response page) {
    return FlowJson.MAPPER
        .createObjectNode()
        .put(STATUS, page.status())
        .put(CONTENT_TYPE, page.contentType())
        .put(BODY, page.body())
        .put(LIVE, page.live());
  }

  /**
   * The console page an answer carries; an {@link InvalidAdminCommand} with the Lambda's error when
   * it refused the request, or when the answer is not one.
   */
  public static Console.Response page(JsonNode answer) {
    if (answer.path(ERROR).isTextual()) {
      throw new InvalidAdminCommand(answer.get(ERROR).asText());
    }
    JsonNode status = answer.path(STATUS);
    JsonNode contentType = answer.path(CONTENT_TYPE);
    JsonNode body = answer.path(BODY);
    JsonNode live = answer.path(LIVE);
    if (!status.isInt() || !contentType.isTextual() || !body.isTextual() || !live.isBoolean()) {
      throw new InvalidAdminCommand("the admin Lambda's answer is not a page: " + answer);
    }
    return new Console.Response(
        status.asInt(), contentType.asText(), body.asText(), live.asBoolean());
  }

  /** The answer carrying {@code result}. */
  public static ObjectNode answer(AdminResult result) {
    ObjectNode answer = FlowJson.MAPPER.createObjectNode();
    ArrayNode lines = answer.putArray(LINES);
    result.lines().forEach(lines::add);
    return answer.put(DONE, result.done());
  }

  /** The answer to a request that could not be run. */
  public static ObjectNode error(String message) {
    return FlowJson.MAPPER.createObjectNode().put(ERROR, message);
  }

  /**
   * The result an answer carries; an {@link InvalidAdminCommand} with the Lambda's error when it
   * refused the request, or when the answer is not one.
   */
  public static AdminResult result(JsonNode answer) {
    if (answer.path(ERROR).isTextual()) {
      throw new InvalidAdminCommand(answer.get(ERROR).asText());
    }
    JsonNode lines = answer.path(LINES);
    JsonNode done = answer.path(DONE);
    if (!lines.isArray() || !done.isBoolean()) {
      throw new InvalidAdminCommand("the admin Lambda's answer is not one: " + answer);
    }
    List<String> text = new ArrayList<>();
    lines.forEach(line -> text.add(line.asText()));
    return new AdminResult(text, done.asBoolean());
  }

  private static long id(JsonNode request, String field) {
    JsonNode id = request.get(field);
    if (id == null || !id.isIntegralNumber() || !id.canConvertToLong()) {
      throw new InvalidAdminCommand(field + " must be an id (a whole number), not " + id);
    }
    return id.asLong();
  }

  private static void onlyFields(JsonNode request, Set<String> allowed) {
    for (Iterator<String> names = request.fieldNames(); names.hasNext(); ) {
      String field = names.next();
      if (!field.equals(COMMAND) && !allowed.contains(field)) {
        throw new InvalidAdminCommand(
            request.get(COMMAND).asText() + " takes no field \"" + field + "\"");
      }
    }
  }
}
