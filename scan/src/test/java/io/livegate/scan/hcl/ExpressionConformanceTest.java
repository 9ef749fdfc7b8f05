package io.livegate.scan.hcl;

import static io.livegate.scan.hcl.Conformance.evaluate;
import static io.livegate.scan.hcl.Conformance.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each construct of the HCL native syntax evaluates to the value Terraform gives it (values written
 * as jsonencode() writes them; the cases follow the HCL native syntax specification and Terraform's
 * expression documentation).
 */
class ExpressionConformanceTest {

  @ParameterizedTest(name = "{0}  =  {1}")
  @CsvSource(
      delimiterString = "¦",
      quoteCharacter = '`',
      textBlock =
          """
          1 + 2 * 3                                   ¦ 7
          (1 + 2) * 3                                 ¦ 9
          10 - 4 - 3                                  ¦ 3
          7 / 2                                       ¦ 3.5
          10 / 4 * 2                                  ¦ 5
          10 % 3                                      ¦ 1
          -7 % 3                                      ¦ -1
          -5 + 2                                      ¦ -3
          2 * -3                                      ¦ -6
          1.5e3                                       ¦ 1500
          "1" + 1                                     ¦ 2
          1 < 2 && 2 < 3                              ¦ true
          true || false && false                      ¦ true
          !true || false                              ¦ false
          !(1 > 2)                                    ¦ true
          1 + 2 == 3                                  ¦ true
          1 == 1.0                                    ¦ true
          1 == "1"                                    ¦ false
          [1, "a"] == [1, "a"]                        ¦ true
          {a = 1} != {a = 2}                          ¦ true
          null == null                                ¦ true
          3 >= 3 && 2 <= 1                            ¦ false
          true ? "a" : "b"                            ¦ "a"
          false ? 1 : true ? 2 : 3                    ¦ 2
          local.prod ? "prod" : "dev"                 ¦ "prod"
          "a-${1 + 1}"                                ¦ "a-2"
          "${true}"                                   ¦ true
          "${local.count}"                            ¦ 3
          "x${local.count}"                           ¦ "x3"
          "${local.deps}"                             ¦ ["vpc","db"]
          "\\u00e9\\t\\"\\\\"                         ¦ "é\\t\\"\\\\"
          "\\U0001F600"                               ¦ "😀"
          "$${local.name}"                            ¦ "${local.name}"
          "%%{ if }"                                  ¦ "%{ if }"
          "../%{ if local.prod }b-prod%{ else }b%{ endif }" ¦ "../b-prod"
          "%{ if !local.prod }b-dev%{ endif }"        ¦ ""
          "%{ for d in local.deps }${d},%{ endfor }"  ¦ "vpc,db,"
          "%{ for i, d in local.deps }${i}=${d} %{ endfor }" ¦ "0=vpc 1=db "
          "a ${~ "b" ~} c"                            ¦ "abc"
          "a %{~ if true ~} b %{~ endif ~} c"         ¦ "abc"
          [1, "a", true, null]                        ¦ [1,"a",true,null]
          [1, 2,]                                     ¦ [1,2]
          { a = 1, "b" = 2, c: 3 }                    ¦ {"a":1,"b":2,"c":3}
          { b = 1, a = 2 }                            ¦ {"a":2,"b":1}
          { (local.name) = 1 }                        ¦ {"app":1}
          { "${local.name}-x" = 1 }                   ¦ {"app-x":1}
          { for = 1, if = 2 }                         ¦ {"for":1,"if":2}
          [for s in ["a", "b"] : upper(s)]            ¦ ["A","B"]
          [for i, s in ["a", "b"] : "${i}:${s}"]      ¦ ["0:a","1:b"]
          [for d in local.deps : "../${d}"]           ¦ ["../vpc","../db"]
          [for x in [1, 2, 3, 4] : x if x % 2 == 0]  ¦ [2,4]
          [for k, v in { b = 1, a = 2 } : k]          ¦ ["a","b"]
          { for k, v in { a = 1, b = 2 } : v => k }   ¦ {"1":"a","2":"b"}
          { for k, v in { a = 1 } : "p.${k}" => v }   ¦ {"p.a":1}
          { for s in ["a", "ab", "b"] : substr(s, 0, 1) => s... } ¦ {"a":["a","ab"],"b":["b"]}
          local.list[*].id                            ¦ ["a","b"]
          local.list.*.id                             ¦ ["a","b"]
          local.list[*].tags.name                     ¦ ["x","y"]
          local.obj[*].id                             ¦ ["solo"]
          local.nothing[*]                            ¦ []
          length(local.list[*])                       ¦ 2
          local.list[0].id                            ¦ "a"
          local.list.1.id                             ¦ "b"
          local.obj["id"]                             ¦ "solo"
          local.deps[1]                               ¦ "db"
          local.deps["0"]                             ¦ "vpc"
          max([1, 5, 3]...)                           ¦ 5
          format("%s-%s", local.deps...)              ¦ "vpc-db"
          [for d in local.deps : d][0]                ¦ "vpc"
          """)
  void constructEvaluatesAsTerraformEvaluatesIt(String expression, String expected) {
    assertThat(json(evaluate(expression))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = "¦",
      quoteCharacter = '`',
      textBlock =
          """
          local.missing                ¦ live/app/terragrunt.hcl:1:5: local.missing does not exist
          local.deps[5]                ¦ live/app/terragrunt.hcl:1:5: local.deps[5]: index 5 is out of range for a list of 2
          local.deps.id                ¦ live/app/terragrunt.hcl:1:5: local.deps.id: a list has no attributes
          "x${local.deps}"             ¦ live/app/terragrunt.hcl:1:9: a template can only interpolate a string, number or bool, found a list
          "x${local.nothing}"          ¦ live/app/terragrunt.hcl:1:9: a template cannot interpolate null
          1 / 0                        ¦ live/app/terragrunt.hcl:1:5: division by zero
          "a" + 1                      ¦ live/app/terragrunt.hcl:1:5: a number is required, found the string "a"
          1 ? 2 : 3                    ¦ live/app/terragrunt.hcl:1:5: the condition of a conditional expression must be a bool
          { for x in ["a", "a"] : x => 1 } ¦ live/app/terragrunt.hcl:1:29: the key "a" is produced twice
          [for x in 1 : x]             ¦ live/app/terragrunt.hcl:1:5: a for expression cannot iterate over the number 1
          nope(1)                      ¦ live/app/terragrunt.hcl:1: livegate does not evaluate the function nope()
          """)
  void expressionThatCannotBeEvaluatedIsUnknownNamingTheConstructAndWhere(
      String expression, String reason) {
    assertThat(json(evaluate(expression))).startsWith("unknown: " + reason);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = "¦",
      quoteCharacter = '`',
      textBlock =
          """
          <<EOT\\nhello\\n  world\\nEOT                       ¦ "hello\\n  world\\n"
          <<-EOT\\n    a\\n      b\\n    EOT                  ¦ "a\\n  b\\n"
          <<EOT\\n${local.name}-%{ if local.prod }p%{ endif }\\nEOT ¦ "app-p\\n"
          <<-EOT\\n  %{ for d in local.deps ~}\\n  ${d}\\n  %{ endfor ~}\\n  EOT ¦ "vpc\\ndb\\n"
          <<EOT\\n\\"quotes\\" and \\t stay\\nEOT             ¦ "\\"quotes\\" and \\\\t stay\\n"
          """)
  void heredocEvaluatesAsTerraformEvaluatesIt(String heredoc, String expected) {
    assertThat(json(evaluate(heredoc.replace("\\n", "\n").replace("\\\"", "\""))))
        .isEqualTo(expected);
  }
}
