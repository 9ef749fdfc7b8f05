package io.livegate.scan.hcl;

import static io.livegate.scan.hcl.StandardFunctions.define;
import static io.livegate.scan.hcl.StringFunctions.str;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.scan.hcl.StandardFunctions.Definition;
import io.livegate.scan.hcl.Values.ValueError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/** Terraform's encoding functions: base64, JSON, YAML, CSV and URL encoding. */
final class EncodingFunctions {
  private static final ObjectMapper JSON = new ObjectMapper();

  private EncodingFunctions() {}

  static void register(Map<String, Definition> into) {
    define(
        into,
        "base64encode",
        1,
        args -> Base64.getEncoder().encodeToString(str(args, 0).getBytes(StandardCharsets.UTF_8)));
    define(into, "base64decode", 1, args -> utf8(base64(str(args, 0))));
    define(into, "base64gzip", 1, args -> gzip(str(args, 0)));
    define(
        into,
        "textencodebase64",
        2,
        args -> Base64.getEncoder().encodeToString(str(args, 0).getBytes(charset(str(args, 1)))));
    define(
        into,
        "textdecodebase64",
        2,
        args -> new String(base64(str(args, 0)), charset(str(args, 1))));
    define(into, "jsonencode", 1, args -> json(args.get(0)));
    define(into, "jsondecode", 1, args -> decode(JSON, str(args, 0), "JSON"));
    define(into, "yamldecode", 1, args -> YamlReader.read(str(args, 0)));
    define(into, "yamlencode", 1, args -> YamlWriter.write(args.get(0)));
    define(into, "csvdecode", 1, args -> csvdecode(str(args, 0)));
    define(into, "urlencode", 1, args -> urlencode(str(args, 0)));
  }

  private static byte[] base64(String text) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new ValueError("failed to decode base64 data: " + e.getMessage());
    }
  }

  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new ValueError("the result of decoding the provided string is not valid UTF-8");
    }
  }

  private static Charset charset(String name) {
    try {
      return Charset.forName(name);
    } catch (UnsupportedCharsetException | java.nio.charset.IllegalCharsetNameException e) {
      throw new ValueError("\"" + name + "\" is not a supported IANA encoding name or alias");
    }
  }

  private static String gzip(String text) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
      gzip.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException impossible) {
      throw new ValueError("cannot compress: " + impossible.getMessage());
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  /** Terraform's JSON: keys sorted, no spaces, and {@code <>&} escaped as Go escapes them. */
  static String json(Object value) {
    StringBuilder out = new StringBuilder();
    writeJson(value, out);
    return out.toString();
  }

  private static void writeJson(Object value, StringBuilder out) {
    if (value instanceof Unknown unknown) {
      throw new ValueError("a value is not known: " + unknown.reason());
    }
    if (value == null) {
      out.append("null");
    } else if (value instanceof String text) {
      quote(text, out);
    } else if (value instanceof BigDecimal number) {
      out.append(Values.numberText(number));
    } else if (value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        writeJson(list.get(i), out);
      }
      out.append(']');
    } else {
      Map<String, Object> map = Values.map(value);
      out.append('{');
      boolean first = true;
      for (String key : Values.sortedKeys(map)) {
        if (!first) {
          out.append(',');
        }
        first = false;
        quote(key, out);
        out.append(':');
        writeJson(map.get(key), out);
      }
      out.append('}');
    }
  }

  private static void quote(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static Object decode(ObjectMapper mapper, String text, String format) {
    try {
      JsonNode node = mapper.readTree(text);
      return node == null || node.isMissingNode() ? null : fromJson(node);
    } catch (JsonProcessingException e) {
      throw new ValueError("not valid " + format + ": " + e.getOriginalMessage());
    }
  }

  private static Object fromJson(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      node.fields().forEachRemaining(field -> map.put(field.getKey(), fromJson(field.getValue())));
      return Values.object(map);
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(fromJson(item)));
      return Collections.unmodifiableList(list);
    }
    if (node.isNumber()) {
      return node.decimalValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return node.isNull() ? null : node.asText();
  }

  /** RFC 4180 CSV with a header row: a list of objects, every value a string. */
  private static Object csvdecode(String text) {
    List<List<String>> rows = new ArrayList<>();
    List<String> row = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      any = true;
      if (quoted) {
        if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        row.add(field.toString());
        field.setLength(0);
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          i++;
        }
        row.add(field.toString());
        field.setLength(0);
        rows.add(row);
        row = new ArrayList<>();
        any = false;
      } else {
        field.append(c);
      }
    }
    if (quoted) {
      throw new ValueError("CSV ends inside a quoted field");
    }
    if (any) {
      row.add(field.toString());
      rows.add(row);
    }
    if (rows.isEmpty()) {
      throw new ValueError("missing header line");
    }
    List<String> header = rows.get(0);
    List<Object> records = new ArrayList<>();
    for (int r = 1; r < rows.size(); r++) {
      List<String> values = rows.get(r);
      if (values.size() != header.size()) {
        throw new ValueError(
            "line "
                + (r + 1)
                + ": wrong number of fields ("
                + values.size()
                + " instead of "
                + header.size()
                + ")");
      }
      Map<String, Object> record = new LinkedHashMap<>();
      for (int i = 0; i < header.size(); i++) {
        record.put(header.get(i), values.get(i));
      }
      records.add(Values.object(record));
    }
    return Collections.unmodifiableList(records);
  }

  /** Go's url.QueryEscape: letters, digits and {@code -_.~} stay, spaces become '+'. */
  private static String urlencode(String text) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~') {
        out.append((char) c);
      } else if (c == ' ') {
        out.append('+');
      } else {
        out.append('%').append(String.format("%02X", c));
      }
    }
    return out.toString();
  }

  /**
   * Terraform's yamlencode: block style, keys sorted, strings double-quoted, two spaces of
   * indentation for nested maps, list items at their key's indentation.
   */
  static final class YamlWriter {
    private YamlWriter() {}

    static String write(Object value) {
      StringBuilder out = new StringBuilder();
      if (isEmptyOrScalar(value)) {
        out.append(scalar(value)).append('\n');
      } else {
        block(value, 0, out);
      }
      return out.toString();
    }

    private static boolean isEmptyOrScalar(Object value) {
      return !(value instanceof List<?> || value instanceof Map<?, ?>)
          || (value instanceof List<?> list && list.isEmpty())
          || (value instanceof Map<?, ?> map && map.isEmpty());
    }

    private static void block(Object value, int indent, StringBuilder out) {
      String pad = " ".repeat(indent);
      if (value instanceof List<?> list) {
        for (Object item : list) {
          out.append(pad).append("- ");
          if (isEmptyOrScalar(item)) {
            out.append(scalar(item)).append('\n');
          } else {
            StringBuilder nested = new StringBuilder();
            block(item, indent + 2, nested);
            out.append(nested.substring(indent + 2));
          }
        }
        return;
      }
      Map<String, Object> map = Values.map(value);
      for (String key : Values.sortedKeys(map)) {
        Object item = map.get(key);
        out.append(pad).append(scalar(key)).append(':');
        if (isEmptyOrScalar(item)) {
          out.append(' ').append(scalar(item)).append('\n');
        } else {
          out.append('\n');
          block(item, item instanceof List ? indent : indent + 2, out);
        }
      }
    }

    private static String scalar(Object value) {
      if (value instanceof Unknown unknown) {
        throw new ValueError("a value is not known: " + unknown.reason());
      }
      if (value == null) {
        return "null";
      }
      if (value instanceof List) {
        return "[]";
      }
      if (value instanceof Map) {
        return "{}";
      }
      if (value instanceof String text) {
        StringBuilder out = new StringBuilder();
        quote(text, out);
        return out.toString()
            .replace("\\u003c", "<")
            .replace("\\u003e", ">")
            .replace("\\u0026", "&");
      }
      return Values.string(value);
    }
  }
}
