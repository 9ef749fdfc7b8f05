package io.livegate.scan.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Parsing bodies: a broken file is rejected naming the construct, the file, the line and the
 * column, never a parser state; valid files with comments, heredocs and odd layout parse.
 */
class HclDocumentTest {
  private static final String FILE = "dev/app/terragrunt.hcl";

  /** Literals and pure functions, for evaluating parsed attributes. */
  private static final Scope LITERALS =
      new Scope() {
        @Override
        public Object variable(String name, String file, int line) {
          return Unknown.at(file, line, "no variables here");
        }

        @Override
        public Object call(
            String function, List<Supplier<Object>> arguments, String file, int line) {
          return StandardFunctions.call(function, arguments, file, line);
        }
      };

  private static Object value(HclDocument document, String attribute) {
    return new Evaluator(LITERALS).evaluate(document.attribute(attribute).orElseThrow().value());
  }

  private static InvalidHcl failure(String text) {
    try {
      HclDocument.parse(FILE, text);
    } catch (InvalidHcl e) {
      return e;
    }
    throw new AssertionError("parsed without an error:\n" + text);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          missing closing brace       | locals {\\n  a = 1\\n\\ndependency "x" {\\n  config_path = "../x"\\n | 4   | '{' of block 'dependency' is never closed (missing '}')
          stray closing brace         | locals {\\n  a = 1\\n}\\n}\\n                                      | 4:1 | unexpected '}' with nothing open
          mismatched bracket          | locals {\\n  a = [1, 2}\\n}\\n                                     | 2:12 | expected ',' or ']' in a tuple, found '}'
          unterminated string         | locals {\\n  a = "abc\\n}\\n                                        | 2:7 | string is not terminated before the end of the line
          unterminated heredoc        | locals {\\n  a = <<EOF\\nabc\\n}\\n                                 | 2:7 | heredoc <<EOF is never terminated
          unterminated comment        | locals {}\\n/* note\\n                                            | 2:1 | comment '/*' is never closed
          attribute without value     | dependency "x" {\\n  config_path =\\n}\\n                          | 2:3 | attribute 'config_path' has no value
          value missing before brace  | dependency "x" { config_path = }\\n                               | 1:18 | attribute 'config_path' has no value
          local without value         | locals {\\n  a = 1\\n  b =\\n}\\n                                  | 3:3 | attribute 'b' has no value
          garbage outside blocks      | locals {}\\n@@@ !!!\\n                                           | 2:1 | unexpected '@' outside any block; expected an attribute or a block
          block header lost its brace | dependency "x" config_path = "../x"\\n                          | 1:28 | expected '=' after 'dependency', or labels and '{' to open a block, found '='
          bare words                  | locals {}\\n\\nbroken hcl file\\n                                 | 3:16 | expected '=' after 'broken', or labels and '{' to open a block, found the end of the line
          symlink target as content   | ../other/terragrunt.hcl                                         | 1:1 | unexpected '.' outside any block; expected an attribute or a block
          doubled equals              | dependency "x" { config_path = = "../x" }\\n                      | 1:32 | expected an expression, found '='
          label with name and no '='  | dependency "x" { config_path "../x" }\\n                         | 1:37 | expected '=' after 'config_path', or labels and '{' to open a block, found '}'
          unclosed interpolation      | a = "${local.x"\\n                                                | 1:6 | expected '}' to close '${', found '"'
          unknown directive           | a = "%{ while x }"\\n                                            | 1:6 | expected if, else, endif, for or endfor after '%{', found 'while'
          endif without if            | a = "x%{ endif }"\\n                                             | 1:7 | unexpected %{endif} with no %{if} or %{for} open
          if never closed             | a = "%{ if true }x"\\n                                           | 1:6 | %{if} is never closed (missing %{endif})
          bad escape                  | a = "\\\\q"\\n                                                   | 1:6 | invalid escape sequence '\\\\q' in a string
          short unicode escape        | a = "\\\\u12"\\n                                                 | 1:6 | the escape \\\\u needs 4 hexadecimal digits
          for without in              | a = [for x : x]\\n                                              | 1:12 | expected 'in' in a for expression, found ':'
          object for without arrow    | a = {for k, v in m : v}\\n                                      | 1:23 | expected '=>' in an object for expression, found '}'
          expansion not last          | a = f(x..., y)\\n                                               | 1:13 | '...' may only follow the last argument of f()
          two attributes on a line    | a = 1 b = 2\\n                                                  | 1:7 | unexpected 'b' after attribute 'a'; expected a new line
          # hashicorp/hcl hclsyntax/parser.go: outside brackets a newline ends the attribute, also
          # right after an operator (parseBinaryOps, parseTernaryConditional); a line comment ends
          # in one (peeker.go turns it into a newline token).
          newline after '?'           | a = true ?\\n  1 : 2\\n                                         | 1:11 | expected an expression, found the end of the line
          newline after ':'           | a = true ? 1 :\\n  2\\n                                         | 1:15 | expected an expression, found the end of the line
          newline after '&&'          | a = true &&\\n  false\\n                                        | 1:12 | expected an expression, found the end of the line
          newline after '+'           | a = 1 +\\n  2\\n                                                 | 1:8 | expected an expression, found the end of the line
          line comment after '+'      | a = 1 + # two\\n  2\\n                                           | 1:14 | expected an expression, found the end of the line
          newline before ':'          | a = true ? 1\\n  : 2\\n                                          | 1:13 | expected ':' in a conditional expression, found the end of the line
          """)
  void brokenFileIsRejectedNamingTheConstructTheLineAndTheColumn(
      String kind, String text, String where, String problem) {
    InvalidHcl error = failure(text.replace("\\n", "\n").replace("\\\\", "\\"));

    String[] lineAndColumn = where.split(":");
    assertThat(error.file()).isEqualTo(FILE);
    assertThat(error.problem()).isEqualTo(problem.replace("\\\\", "\\"));
    assertThat(error.line()).isEqualTo(Integer.parseInt(lineAndColumn[0]));
    assertThat(error.column())
        .isEqualTo(lineAndColumn.length > 1 ? Integer.parseInt(lineAndColumn[1]) : 0);
    assertThat(error.getMessage()).isEqualTo(FILE + ":" + where + ": " + error.problem());
  }

  @Test
  void insideBracketsOrAfterAMultiLineBlockCommentALineBreakAfterAnOperatorIsSpace() {
    HclDocument document =
        HclDocument.parse(
            FILE,
            "a = (true ?\n  1 :\n  2)\n"
                + "b = [1 +\n  2]\n"
                + "c = f(true &&\n  false)\n"
                + "d = 1 + /* a comment\n  over lines */ 2\n");

    assertThat(value(document, "a")).isEqualTo(java.math.BigDecimal.ONE);
    assertThat(value(document, "b")).isEqualTo(List.of(new java.math.BigDecimal(3)));
    assertThat(document.attribute("c")).isPresent();
    assertThat(value(document, "d")).isEqualTo(new java.math.BigDecimal(3));
  }

  @Test
  void bracketsQuotesAndCommentMarkersInsideStringsCommentsAndHeredocsDoNotCount() {
    HclDocument document =
        HclDocument.parse(
            FILE,
            """
            # a comment with { and "
            // another } one
            /* and a block comment ] with ( */
            a = "text with } and ] and # and // and \\" quote"
            b = "${lookup({ "k" = "}" }, "k")}"
            c = <<EOF
            heredoc { with " unbalanced [ things
            EOF
            d = <<-EOT
              indented }
              EOT
            e = "$${not_interpolated}"
            """);

    assertThat(value(document, "a")).isEqualTo("text with } and ] and # and // and \" quote");
    assertThat(value(document, "b")).isEqualTo("}");
    assertThat(value(document, "c")).isEqualTo("heredoc { with \" unbalanced [ things\n");
    assertThat(value(document, "e")).isEqualTo("${not_interpolated}");
  }

  @Test
  void objectAttributeThatEndsTheFileWithoutANewlineParses() {
    HclDocument document = HclDocument.parse(FILE, "inputs = {\n  name = \"app\"\n}");

    assertThat(value(document, "inputs")).isEqualTo(Map.of("name", "app"));
  }

  @Test
  void windowsLineEndingsAndAByteOrderMarkParse() {
    HclDocument document =
        HclDocument.parse(
            FILE, "\uFEFFlocals {\r\n  a = <<EOF\r\nline \"one\r\nEOF\r\n}\r\nb = \"two\"\r\n");

    assertThat(document.blocks("locals")).hasSize(1);
    assertThat(value(document, "b")).isEqualTo("two");
  }

  @Test
  void blocksWithQuotedAndBareLabelsAndAttributesAtTheTopLevelParse() {
    HclDocument document =
        HclDocument.parse(
            FILE,
            """
            dependency "vpc" {
              config_path = "../vpc"
            }
            dependency db {
              config_path = "../db"
            }
            include{
              path = "x"
            }
            inputs = { a = 1 }
            """);

    assertThat(document.blocks("dependency")).extracting(Block::label).containsExactly("vpc", "db");
    assertThat(document.blocks("include")).hasSize(1);
    assertThat(document.attributes()).containsOnlyKeys("inputs");
  }

  @Test
  void attributeDefinedTwiceIsAnErrorNamingBothLines() {
    InvalidHcl error = failure("locals {}\na = 1\na = 2\n");

    assertThat(error.line()).isEqualTo(3);
    assertThat(error.problem()).isEqualTo("attribute 'a' is already defined on line 2");
  }
}
