package io.livegate.scan.hcl;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One parsed HCL file: its top-level attributes and blocks, not yet evaluated. */
public final class HclDocument {
  private final String file;
  private final Block body;

  private HclDocument(String file, Block body) {
    this.file = file;
    this.body = body;
  }

  /**
   * Parses {@code text}.
   *
   * @param file the repo-relative path, used in messages
   * @throws InvalidHcl when the file is not valid HCL; the message names the construct, the file,
   *     the line and the column
   */
  public static HclDocument parse(String file, String text) {
    return new HclDocument(file, Parser.parseBody(file, text));
  }

  public String file() {
    return file;
  }

  public List<Block> blocks(String type) {
    return body.blocks(type);
  }

  /** Every top-level block, in source order. */
  public List<Block> blocks() {
    return body.blocks();
  }

  public Optional<Attribute> attribute(String name) {
    return body.attribute(name);
  }

  public Map<String, Attribute> attributes() {
    return body.attributes();
  }
}
