package io.livegate.scan.hcl;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A block: {@code type "label" ... { body }}.
 *
 * @param line the 1-based line of the block header
 */
public record Block(
    String type,
    List<String> labels,
    Map<String, Attribute> attributes,
    List<Block> blocks,
    int line) {

  public Optional<Attribute> attribute(String name) {
    return Optional.ofNullable(attributes.get(name));
  }

  public List<Block> blocks(String blockType) {
    return blocks.stream().filter(block -> block.type().equals(blockType)).toList();
  }

  /** The first label, or an empty string for an unlabelled block. */
  public String label() {
    return labels.isEmpty() ? "" : labels.get(0);
  }
}
