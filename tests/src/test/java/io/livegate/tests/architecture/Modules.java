package io.livegate.tests.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The modules as the build has them: the parent pom's list, the rings they sit on, and the packages
 * of each module's main sources. ModuleGraphTest holds the poms to the rings; ArchitectureTest
 * holds the classes to them, so neither lists a package by hand.
 */
final class Modules {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** Rings from the inside out; a module may depend on its own ring and those inside it. */
  static final List<Set<String>> RINGS =
      List.of(
          Set.of("core", "scan"),
          Set.of("sql", "statemachine", "github", "process", "aws"),
          Set.of("cli", "lambdas", "ecs-tasks", "infra-cdk"),
          Set.of("tests"));

  static final Set<String> DOMAIN = RINGS.get(0);
  static final Set<String> DEPLOYABLES = RINGS.get(2);

  /** A dependency of one module on another, with its Maven scope. */
  record Edge(String from, String to, String scope) {}

  private Modules() {}

  static int ring(String module) {
    for (int i = 0; i < RINGS.size(); i++) {
      if (RINGS.get(i).contains(module)) {
        return i;
      }
    }
    throw new AssertionError("module " + module + " is in no ring of Modules.RINGS");
  }

  /** Each module directory of the parent pom, with its artifact id. */
  static Map<String, String> artifacts() {
    Map<String, String> modules = new LinkedHashMap<>();
    NodeList list =
        child(read(ROOT.resolve("pom.xml")).getDocumentElement(), "modules")
            .getElementsByTagName("module");
    for (int i = 0; i < list.getLength(); i++) {
      String dir = list.item(i).getTextContent().strip();
      modules.put(
          dir, text(read(ROOT.resolve(dir).resolve("pom.xml")).getDocumentElement(), "artifactId"));
    }
    return modules;
  }

  /** The packages of a module's main sources (none for a module of tests only). */
  static Set<String> packages(String module) {
    Path sources = ROOT.resolve(module).resolve("src/main/java");
    Set<String> packages = new TreeSet<>();
    if (!Files.isDirectory(sources)) {
      return packages;
    }
    try (Stream<Path> files = Files.walk(sources)) {
      files
          .filter(file -> file.getFileName().toString().endsWith(".java"))
          .map(file -> sources.relativize(file.getParent()).toString().replace('/', '.'))
          .forEach(packages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return packages;
  }

  /**
   * Each module with main sources, and the one package all its packages live in (jdbi's one prefix
   * per module): the longest common prefix of its packages. A module whose packages share only
   * {@code io.livegate} fails here, naming them.
   */
  static Map<String, String> rootPackages() {
    Map<String, String> roots = new LinkedHashMap<>();
    for (String module : artifacts().keySet()) {
      Set<String> packages = packages(module);
      if (packages.isEmpty()) {
        continue;
      }
      String root = packages.iterator().next();
      for (String name : packages) {
        while (!(name.equals(root) || name.startsWith(root + "."))) {
          root = root.contains(".") ? root.substring(0, root.lastIndexOf('.')) : "";
        }
      }
      if (root.split("\\.").length < 3) {
        throw new AssertionError(
            "module " + module + "'s packages share no package of its own: " + packages);
      }
      roots.put(module, root);
    }
    return roots;
  }

  /** Every dependency of a module on another in the poms. */
  static List<Edge> edges() {
    Map<String, String> modules = artifacts();
    List<Edge> edges = new ArrayList<>();
    for (Map.Entry<String, String> module : modules.entrySet()) {
      Document pom = read(ROOT.resolve(module.getKey()).resolve("pom.xml"));
      Element dependencies = child(pom.getDocumentElement(), "dependencies");
      if (dependencies == null) {
        continue;
      }
      NodeList list = dependencies.getElementsByTagName("dependency");
      for (int i = 0; i < list.getLength(); i++) {
        Element dependency = (Element) list.item(i);
        String artifact = text(dependency, "artifactId");
        if ("io.livegate".equals(text(dependency, "groupId")) && modules.containsValue(artifact)) {
          String target =
              modules.entrySet().stream()
                  .filter(m -> m.getValue().equals(artifact))
                  .findFirst()
                  .orElseThrow()
                  .getKey();
          String scope = text(dependency, "scope");
          edges.add(new Edge(module.getKey(), target, scope == null ? "compile" : scope));
        }
      }
    }
    return edges;
  }

  /**
   * {@code module} and every module its main code gets on its class path through the poms,
   * transitively (test scope left out): what a Lambda's jar, say, holds of livegate.
   */
  static Set<String> withDependencies(String module) {
    List<Edge> edges = edges().stream().filter(edge -> !edge.scope().equals("test")).toList();
    Set<String> reached = new TreeSet<>(Set.of(module));
    Deque<String> next = new ArrayDeque<>(reached);
    while (!next.isEmpty()) {
      String from = next.pop();
      edges.stream()
          .filter(edge -> edge.from().equals(from))
          .map(Edge::to)
          .filter(reached::add)
          .forEach(next::push);
    }
    return reached;
  }

  static Document read(Path pom) {
    try {
      return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    } catch (Exception e) {
      throw new AssertionError("cannot read " + pom, e);
    }
  }

  static Element child(Element parent, String name) {
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        return element;
      }
    }
    return null;
  }

  static String text(Element parent, String name) {
    Element element = child(parent, name);
    return element == null ? null : element.getTextContent().strip();
  }
}
