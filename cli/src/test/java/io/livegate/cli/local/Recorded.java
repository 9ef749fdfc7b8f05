package io.livegate.cli.local;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.Execution;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a state directory's metadb holds after a run, read by opening it again: the deployments,
 * their executions and every execution's flow events.
 */
record Recorded(
    List<Deployment> deployments, List<Execution> executions, Map<Long, List<String>> events) {

  static Recorded in(Path stateDirectory) {
    try (LocalWiring wiring = new LocalWiring(stateDirectory)) {
      List<Deployment> deployments = wiring.deployments.all();
      List<Execution> executions =
          deployments.stream()
              .flatMap(deployment -> wiring.executions.list(deployment.id()).stream())
              .toList();
      Map<Long, List<String>> events = new HashMap<>();
      executions.forEach(
          execution -> events.put(execution.id(), wiring.executions.flowEvents(execution.id())));
      return new Recorded(deployments, executions, events);
    }
  }

  Deployment deployment() {
    if (deployments.size() != 1) {
      throw new AssertionError("expected one deployment, found " + deployments);
    }
    return deployments.get(0);
  }

  /** The unit's normal execution. */
  Execution execution(String unit) {
    return one(execution -> execution.unit().equals(unit) && !execution.rollback(), unit);
  }

  /** The unit's rollback execution. */
  Execution rollback(String unit) {
    return one(execution -> execution.unit().equals(unit) && execution.rollback(), unit);
  }

  List<Execution> normal() {
    return executions.stream().filter(execution -> !execution.rollback()).toList();
  }

  List<Execution> rollbacks() {
    return executions.stream().filter(Execution::rollback).toList();
  }

  List<String> events(Execution execution) {
    return events.get(execution.id());
  }

  Execution byId(long id) {
    return one(execution -> execution.id() == id, "id " + id);
  }

  private Execution one(Predicate<Execution> which, String what) {
    List<Execution> found = executions.stream().filter(which).toList();
    if (found.size() != 1) {
      throw new AssertionError("expected one execution for " + what + ", found " + found);
    }
    return found.get(0);
  }
}
