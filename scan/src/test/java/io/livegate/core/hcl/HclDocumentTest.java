package io.livegate.core.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Parsing: what hcl4j's lenient lexer would accept or drop silently is rejected with the file and
 * line, and valid files that trip it up still parse.
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
          missing closing brace      | locals {\\n  a = 1\\n\\ndependency "x" {\\n  config_path = "../x"\\n | 4 | never closed
          stray closing brace        | locals {\\n  a = 1\\n}\\n}\\n                                      | 4 | unexpected '}'
          mismatched bracket         | locals {\\n  a = [1, 2}\\n}\\n                                     | 2 | expected ']'
          unterminated string        | locals {\\n  a = "abc\\n}\\n                                        | 2 | string is not terminated
          unterminated heredoc       | locals {\\n  a = <<EOF\\nabc\\n}\\n                                 | 2 | heredoc <<EOF is never terminated
          unterminated comment       | locals {}\\n/* note\\n                                            | 2 | '/*' is never closed
          attribute without value    | dependency "x" {\\n  config_path =\\n}\\n                          | 2 | attribute 'config_path' has no value
          value missing before brace | dependency "x" { config_path = }\\n                               | 1 | attribute 'config_path' has no value
          local without value        | locals {\\n  a = 1\\n  b =\\n}\\n                                  | 3 | attribute 'b' has no value
          garbage outside blocks     | locals {}\\n@@@ !!!\\n                                           | 2 | unexpected '@' outside any block
          block header lost its brace | dependency "x" config_path = "../x"\\n                          | 1 | expected '=' after 'dependency'
          bare words                 | locals {}\\n\\nbroken hcl file\\n                                 | 3 | expected '=' after 'broken'
          symlink target as content  | ../other/terragrunt.hcl                                         | 1 | unexpected '.' outside any block
          doubled equals             | dependency "x" { config_path = = "../x" }\\n                      | 1 | cannot parse
          """)
  void brokenFileIsRejectedNamingTheFileAndLine(
      String kind, String text, int line, String problem) {
    InvalidHcl error = failure(text.replace("\\n", "\n"));

    assertThat(error.file()).isEqualTo(FILE);
    assertThat(error.line()).isEqualTo(line);
    assertThat(error.problem()).contains(problem);
    assertThat(error.getMessage()).startsWith(FILE + ":" + line + ": ");
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

  @Test
  void lexerErrorsCarryTheLineOfTheFile() {
    InvalidHcl error =
        failure("locals {\n  a = 1\n}\n\ndependency \"x\" { config_path \"../x\" }\n");

    assertThat(error.line()).isEqualTo(5);
    assertThat(error.problem()).startsWith("cannot parse");
  }
}
