package io.livegate.tests.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The module graph, read from the poms: each module depends only on rings inside its own, no
 * deployable depends on another (in any scope), and the top README draws exactly this graph.
 */
class ModuleGraphTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** Rings from the inside out; a module may depend on its own ring and those inside it. */
  private static final List<Set<String>> RINGS =
      List.of(
          Set.of("core", "scan"),
          Set.of("sql", "statemachine", "github", "process", "aws"),
          Set.of("cli", "lambdas", "ecs-tasks", "infra-cdk"),
          Set.of("tests"));

  private static final Set<String> DEPLOYABLES = RINGS.get(2);

  /** A dependency of one module on another, with its Maven scope. */
  private record Edge(String from, String to, String scope) {}

  @Test
  void everyModuleDependsOnlyOnRingsInsideItsOwn() throws Exception {
    for (Edge edge : edges()) {
      assertThat(ring(edge.to()))
          .as(edge.from() + " -> " + edge.to() + " (" + edge.scope() + ")")
          .isLessThanOrEqualTo(ring(edge.from()));
    }
  }

  @Test
  void noDeployableDependsOnAnotherInAnyScope() throws Exception {
    assertThat(edges())
        .filteredOn(e -> DEPLOYABLES.contains(e.from()) && DEPLOYABLES.contains(e.to()))
        .isEmpty();
  }

  @Test
  void theReadmeDrawsTheModuleGraphOfThePoms() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"));
    String begin = "<!-- module graph: generated from the poms, checked by ModuleGraphTest -->";
    int start = readme.indexOf(begin);
    assertThat(start).as("README.md holds the marker " + begin).isNotNegative();
    int open = readme.indexOf("```mermaid\n", start);
    int close = readme.indexOf("```\n", open + 1);
    assertThat(readme.substring(open, close + 4))
        .as("README.md's module graph; this is the graph of the poms")
        .isEqualTo(mermaid());
  }

  private static String mermaid() throws Exception {
    StringBuilder graph = new StringBuilder("```mermaid\nflowchart BT\n");
    Set<String> lines = new TreeSet<>();
    for (Edge edge : edges()) {
      if (!edge.scope().equals("test") && !edge.from().equals("tests")) {
        lines.add("  " + edge.from() + " --> " + edge.to());
      }
    }
    lines.forEach(line -> graph.append(line).append('\n'));
    return graph.append("```\n").toString();
  }

  private static int ring(String module) {
    for (int i = 0; i < RINGS.size(); i++) {
      if (RINGS.get(i).contains(module)) {
        return i;
      }
    }
    throw new AssertionError("module " + module + " is in no ring of ModuleGraphTest");
  }

  private static List<Edge> edges() throws Exception {
    Map<String, String> modules = modules();
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

  /** Each module directory of the parent pom, with its artifact id. */
  private static Map<String, String> modules() throws Exception {
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

  private static Document read(Path pom) throws Exception {
    try {
      return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    } catch (IOException e) {
      throw new AssertionError("cannot read " + pom, e);
    }
  }

  private static Element child(Element parent, String name) {
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        return element;
      }
    }
    return null;
  }

  private static String text(Element parent, String name) {
    Element element = child(parent, name);
    return element == null ? null : element.getTextContent().strip();
  }
}
