package io.livegate.scan.hcl;

import io.livegate.scan.hcl.Values.ValueError;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Terraform's yamldecode: YAML 1.2-style scalars (null, bool, int, float, string; timestamps stay
 * strings), anchors and aliases resolved, one document only.
 */
final class YamlReader {
  private YamlReader() {}

  static Object read(String text) {
    Node root;
    try {
      LoaderOptions options = new LoaderOptions();
      options.setAllowDuplicateKeys(false);
      root = new Yaml(new SafeConstructor(options)).compose(new StringReader(text));
    } catch (YAMLException e) {
      throw new ValueError("not valid YAML: " + e.getMessage().replace('\n', ' '));
    }
    return root == null ? null : value(root);
  }

  private static Object value(Node node) {
    if (node instanceof MappingNode mapping) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (NodeTuple entry : mapping.getValue()) {
        Object key = value(entry.getKeyNode());
        if (key instanceof Map || key instanceof List) {
          throw new ValueError("a YAML map key must be a scalar");
        }
        map.put(Values.string(key), value(entry.getValueNode()));
      }
      return Values.object(map);
    }
    if (node instanceof SequenceNode sequence) {
      List<Object> list = new ArrayList<>();
      sequence.getValue().forEach(item -> list.add(value(item)));
      return Collections.unmodifiableList(list);
    }
    String text = ((ScalarNode) node).getValue();
    Tag tag = node.getTag();
    if (tag.equals(Tag.NULL)) {
      return null;
    }
    if (tag.equals(Tag.BOOL)) {
      return text.equalsIgnoreCase("true")
          || text.equalsIgnoreCase("yes")
          || text.equalsIgnoreCase("on");
    }
    if (tag.equals(Tag.INT)) {
      return integer(text.replace("_", ""));
    }
    if (tag.equals(Tag.FLOAT)) {
      try {
        return new BigDecimal(text.replace("_", ""));
      } catch (NumberFormatException e) {
        throw new ValueError("the YAML number " + text + " cannot be represented");
      }
    }
    return text;
  }

  private static BigDecimal integer(String text) {
    String digits = text;
    boolean negative = digits.startsWith("-");
    if (negative || digits.startsWith("+")) {
      digits = digits.substring(1);
    }
    int radix = 10;
    if (digits.startsWith("0x")) {
      radix = 16;
      digits = digits.substring(2);
    } else if (digits.startsWith("0o")) {
      radix = 8;
      digits = digits.substring(2);
    }
    BigInteger value = new BigInteger(digits, radix);
    return new BigDecimal(negative ? value.negate() : value);
  }
}
