package io.livegate.tests.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The module graph, read from the poms: each module depends only on rings inside its own, no
 * deployable depends on another (in any scope), and the top README draws exactly this graph.
 */
class ModuleGraphTest {
  @Test
  void everyModuleDependsOnlyOnRingsInsideItsOwn() throws Exception {
    for (Modules.Edge edge : Modules.edges()) {
      assertThat(Modules.ring(edge.to()))
          .as(edge.from() + " -> " + edge.to() + " (" + edge.scope() + ")")
          .isLessThanOrEqualTo(Modules.ring(edge.from()));
    }
  }

  @Test
  void noDeployableDependsOnAnotherInAnyScope() throws Exception {
    assertThat(Modules.edges())
        .filteredOn(
            e -> Modules.DEPLOYABLES.contains(e.from()) && Modules.DEPLOYABLES.contains(e.to()))
        .isEmpty();
  }

  @Test
  void theReadmeDrawsTheModuleGraphOfThePoms() throws Exception {
    String readme = Files.readString(Modules.ROOT.resolve("README.md"));
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
    for (Modules.Edge edge : Modules.edges()) {
      if (!edge.scope().equals("test") && !edge.from().equals("tests")) {
        lines.add("  " + edge.from() + " --> " + edge.to());
      }
    }
    lines.forEach(line -> graph.append(line).append('\n'));
    return graph.append("```\n").toString();
  }
}
