package io.livegate.scan.hcl;

import static io.livegate.scan.hcl.Conformance.evaluate;
import static io.livegate.scan.hcl.Conformance.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Terraform's pure functions give the values of Terraform's function documentation (most cases are
 * the examples on each function's page), written as jsonencode() writes them. Strings are in
 * Unicode normal form C, as every cty string is (zclconf/go-cty cty/value_init.go: StringVal
 * normalises on entry), so {@code "ae\u0301"} reverses to a precomposed {@code "\u00e9a"}; an
 * {@code x} with an acute accent has no precomposed form and stays a cluster of two.
 */
class FunctionConformanceTest {

  @ParameterizedTest(name = "{0}  =  {1}")
  @CsvSource(
      delimiterString = "¦",
      quoteCharacter = '`',
      textBlock =
          """
          abs(23)                                      ¦ 23
          abs(-12.4)                                   ¦ 12.4
          ceil(5.1)                                    ¦ 6
          floor(4.9)                                   ¦ 4
          log(16, 2)                                   ¦ 4
          max(12, 54, 3)                               ¦ 54
          min(12, 54, 3)                               ¦ 3
          parseint("100", 10)                          ¦ 100
          parseint("FF", 16)                           ¦ 255
          parseint("-10", 16)                          ¦ -16
          parseint("1011111011101111", 2)              ¦ 48879
          pow(3, 2)                                    ¦ 9
          pow(4, 0)                                    ¦ 1
          signum(-13)                                  ¦ -1
          signum(0)                                    ¦ 0
          chomp("hello\\n")                            ¦ "hello"
          chomp("hello\\r\\n")                         ¦ "hello"
          chomp("hello\\n\\n")                         ¦ "hello"
          endswith("hello world", "world")             ¦ true
          startswith("hello world", "hello")           ¦ true
          strcontains("hello world", "wor")            ¦ true
          format("Hello, %s!", "Ander")                ¦ "Hello, Ander!"
          format("There are %d lights", 4)             ¦ "There are 4 lights"
          format("%.2f", 3.14159)                      ¦ "3.14"
          format("%03d|%-4s|%4s", 7, "ab", "cd")       ¦ "007|ab  |  cd"
          format("%x %X %o %b", 255, 255, 8, 5)        ¦ "ff FF 10 101"
          format("%t %v %#v", true, 1.5, "a")          ¦ "true 1.5 \\"a\\""
          format("%q %%", "x")                         ¦ "\\"x\\" %"
          formatlist("Hello, %s!", ["Valentina", "Ander"]) ¦ ["Hello, Valentina!","Hello, Ander!"]
          formatlist("%s, %s!", "Salutations", ["Valentina", "Ander"]) ¦ ["Salutations, Valentina!","Salutations, Ander!"]
          formatlist("../%s", local.deps)              ¦ ["../vpc","../db"]
          indent(2, "[\\n  foo,\\n  bar,\\n]\\n")      ¦ "[\\n    foo,\\n    bar,\\n  ]\\n  "
          join(", ", ["foo", "bar", "baz"])            ¦ "foo, bar, baz"
          join(", ", ["foo"])                          ¦ "foo"
          join("-", ["a"], ["b", "c"])                 ¦ "a-b-c"
          lower("HELLO")                               ¦ "hello"
          upper("hello")                               ¦ "HELLO"
          title("hello world")                         ¦ "Hello World"
          regex("[a-z]+", "53453453.345345aaabbbccc23454") ¦ "aaabbbccc"
          regex("(\\\\d\\\\d\\\\d\\\\d)-(\\\\d\\\\d)-(\\\\d\\\\d)", "2019-02-01") ¦ ["2019","02","01"]
          regex("^(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?", "https://terraform.io/docs/") ¦ {"authority":"terraform.io","scheme":"https"}
          regexall("[a-z]+", "1234abcd5678efgh9")      ¦ ["abcd","efgh"]
          length(regexall("[a-z]+", "123"))            ¦ 0
          replace("1 + 2 + 3", "+", "-")               ¦ "1 - 2 - 3"
          replace("hello world", "/w.*d/", "everybody") ¦ "hello everybody"
          replace("a-b", "/(\\\\w)-(\\\\w)/", "$2-$1")  ¦ "b-a"
          split(",", "foo,bar,baz")                    ¦ ["foo","bar","baz"]
          split(",", "foo")                            ¦ ["foo"]
          split(",", "")                               ¦ [""]
          strrev("hello")                              ¦ "olleh"
          strrev("a ☃")                                ¦ "☃ a"
          strrev("ax\u0301")                           ¦ "x\u0301a"
          substr("x\u0301yz", 0, 2)                    ¦ "x\u0301y"
          strrev("ae\u0301")                           ¦ "\u00e9a"
          substr("e\u0301tude", 0, 2)                  ¦ "\u00e9t"
          substr("hello world", 1, 4)                  ¦ "ello"
          substr("🤔🤷", 0, 1)                          ¦ "🤔"
          substr("hello world", -5, -1)                ¦ "world"
          substr("hello world", 6, 10)                 ¦ "world"
          trim("?!hello?!", "!?")                      ¦ "hello"
          trim("foobar", "far")                        ¦ "oob"
          trimprefix("helloworld", "hello")            ¦ "world"
          trimsuffix("helloworld", "world")            ¦ "hello"
          trimspace("  hello\\n\\n")                   ¦ "hello"
          alltrue(["true", true])                      ¦ true
          alltrue([true, false])                       ¦ false
          alltrue([])                                  ¦ true
          anytrue(["true"])                            ¦ true
          anytrue([])                                  ¦ false
          chunklist(["a", "b", "c", "d", "e"], 2)      ¦ [["a","b"],["c","d"],["e"]]
          coalesce("a", "b")                           ¦ "a"
          coalesce("", "b")                            ¦ "b"
          coalesce(1, 2)                               ¦ 1
          coalescelist([], ["c", "d"])                 ¦ ["c","d"]
          compact(["a", "", "b", null, "c"])           ¦ ["a","b","c"]
          concat(["a", ""], ["b", "c"])                ¦ ["a","","b","c"]
          contains(["a", "b", "c"], "a")               ¦ true
          contains(["a", "b", "c"], "d")               ¦ false
          distinct(["a", "b", "a", "c", "d", "b"])     ¦ ["a","b","c","d"]
          element(["a", "b", "c"], 1)                  ¦ "b"
          element(["a", "b", "c"], 3)                  ¦ "a"
          flatten([["a", "b"], [], ["c"]])             ¦ ["a","b","c"]
          flatten([[["a", "b"], []], ["c"]])           ¦ ["a","b","c"]
          index(["a", "b", "c"], "b")                  ¦ 1
          keys({a = 1, c = 2, d = 3})                  ¦ ["a","c","d"]
          values({a = 3, c = 2, d = 1})                ¦ [3,2,1]
          length([])                                   ¦ 0
          length(["a", "b"])                           ¦ 2
          length({"a" = "b"})                          ¦ 1
          length("hello")                              ¦ 5
          length("👾🕹️")                               ¦ 2
          length("e\u0301")                            ¦ 1
          length("👩‍👩‍👧")                               ¦ 1
          lookup({a = "ay", b = "bee"}, "a", "what?")  ¦ "ay"
          lookup({a = "ay", b = "bee"}, "c", "what?")  ¦ "what?"
          matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"]) ¦ ["i-abc","i-def"]
          merge({a = "b", c = "d"}, {e = "f", c = "z"}) ¦ {"a":"b","c":"z","e":"f"}
          one([])                                      ¦ null
          one(["hello"])                               ¦ "hello"
          range(3)                                     ¦ [0,1,2]
          range(1, 4)                                  ¦ [1,2,3]
          range(1, 8, 2)                               ¦ [1,3,5,7]
          range(1, 4, 0.5)                             ¦ [1,1.5,2,2.5,3,3.5]
          range(4, 1)                                  ¦ [4,3,2]
          range(10, 5, -2)                             ¦ [10,8,6]
          reverse([1, 2, 3])                           ¦ [3,2,1]
          setintersection(["a", "b"], ["b", "c"], ["b", "d"]) ¦ ["b"]
          setproduct(["development", "staging"], ["app1", "app2"]) ¦ [["development","app1"],["development","app2"],["staging","app1"],["staging","app2"]]
          setsubtract(["a", "b", "c"], ["a", "c"])     ¦ ["b"]
          setunion(["a", "b"], ["b", "c"], ["d"])      ¦ ["a","b","c","d"]
          slice(["a", "b", "c", "d"], 1, 3)            ¦ ["b","c"]
          sort(["e", "d", "a", "x"])                   ¦ ["a","d","e","x"]
          sum([10, 13, 6, 4.5])                        ¦ 33.5
          transpose({"a" = ["1", "2"], "b" = ["2", "3"]}) ¦ {"1":["a"],"2":["a","b"],"3":["b"]}
          zipmap(["a", "b"], [1, 2])                   ¦ {"a":1,"b":2}
          base64decode("SGVsbG8gV29ybGQ=")             ¦ "Hello World"
          base64encode("Hello World")                  ¦ "SGVsbG8gV29ybGQ="
          csvdecode("a,b,c\\n1,2,3\\n4,5,6")           ¦ [{"a":"1","b":"2","c":"3"},{"a":"4","b":"5","c":"6"}]
          jsondecode("{\\"hello\\": \\"world\\"}")     ¦ {"hello":"world"}
          jsondecode("true")                           ¦ true
          jsonencode({"hello" = "world"})              ¦ "{\\"hello\\":\\"world\\"}"
          jsonencode({b = [1, null], a = "<&>"})       ¦ "{\\"a\\":\\"\\\\u003c\\\\u0026\\\\u003e\\",\\"b\\":[1,null]}"
          textencodebase64("Hello World", "UTF-16LE")  ¦ "SABlAGwAbABvACAAVwBvAHIAbABkAA=="
          textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE") ¦ "Hello World"
          urlencode("Hello World!")                    ¦ "Hello+World%21"
          urlencode("☃")                               ¦ "%E2%98%83"
          urlencode("foo:bar@localhost?foo=bar&bar=baz") ¦ "foo%3Abar%40localhost%3Ffoo%3Dbar%26bar%3Dbaz"
          yamldecode("hello: world")                   ¦ {"hello":"world"}
          yamldecode("true")                           ¦ true
          yamldecode("{a: &foo [1, 2, 3], b: *foo}")   ¦ {"a":[1,2,3],"b":[1,2,3]}
          yamldecode("deps:\\n  - ../vpc\\n  - ../db\\n") ¦ {"deps":["../vpc","../db"]}
          yamlencode({"a" = "b", "c" = "d"})           ¦ "\\"a\\": \\"b\\"\\n\\"c\\": \\"d\\"\\n"
          yamlencode({"foo" = [1, 2, 3], "bar" = "baz"}) ¦ "\\"bar\\": \\"baz\\"\\n\\"foo\\":\\n- 1\\n- 2\\n- 3\\n"
          yamlencode({"foo" = [1, {"a" = "b", "c" = "d"}, 3], "bar" = "baz"}) ¦ "\\"bar\\": \\"baz\\"\\n\\"foo\\":\\n- 1\\n- \\"a\\": \\"b\\"\\n  \\"c\\": \\"d\\"\\n- 3\\n"
          md5("hello world")                           ¦ "5eb63bbbe01eeed093cb22bb8f5acdc3"
          sha1("hello world")                          ¦ "2aae6c35c94fcfb415dbe95f408b9ce91ee846ed"
          sha256("hello world")                        ¦ "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"
          sha512("hello world")                        ¦ "309ecc489c12d6eb4cc40f50c902f2b4d0ed77ee511a7c7a9bcd3ca86d4cd86f989dd35bc5ff499670da34255b45b0cfd830e81f605dcf7dc5542e93ae9cd76f"
          base64sha256("hello world")                  ¦ "uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek="
          base64sha512("hello world")                  ¦ "MJ7MSJwS1utMxA9QyQLytNDtd+5RGnx6m808qG1M2G+YndNbxf9JlnDaNCVbRbDP2DDoH2Bdz33FVC6TrpzXbw=="
          uuidv5("dns", "www.terraform.io")            ¦ "a5008fae-b28c-5ba5-96cd-82b4c53552d6"
          uuidv5("url", "https://www.terraform.io/")   ¦ "9db6f67c-dd95-5ea0-aa5b-e70e5c5f7cf5"
          cidrhost("10.12.112.0/20", 16)               ¦ "10.12.112.16"
          cidrhost("10.12.112.0/20", 268)              ¦ "10.12.113.12"
          cidrhost("fd00:fd12:3456:7890:00a2::/72", 34) ¦ "fd00:fd12:3456:7890::22"
          cidrnetmask("172.16.0.0/12")                 ¦ "255.240.0.0"
          cidrsubnet("172.16.0.0/12", 4, 2)            ¦ "172.18.0.0/16"
          cidrsubnet("10.1.2.0/24", 4, 15)             ¦ "10.1.2.240/28"
          cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162) ¦ "fd00:fd12:3456:7800:a200::/72"
          cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)       ¦ ["10.1.0.0/20","10.1.16.0/20","10.1.32.0/24","10.1.48.0/20"]
          formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z") ¦ "02 Jan 2018 23:12 UTC"
          formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z") ¦ "Tuesday, 02-Jan-18 23:12:01 UTC"
          formatdate("EEE, DD MMM YYYY hh:mm:ss ZZZ", "2018-01-02T23:12:01-08:00") ¦ "Tue, 02 Jan 2018 23:12:01 -0800"
          formatdate("MMM DD, YYYY", "2018-01-02T23:12:01Z") ¦ "Jan 02, 2018"
          formatdate("HH:mmaa", "2018-01-02T23:12:01Z") ¦ "11:12pm"
          timeadd("2017-11-22T00:00:00Z", "10m")       ¦ "2017-11-22T00:10:00Z"
          timeadd("2017-11-22T00:00:00Z", "-1h30m")    ¦ "2017-11-21T22:30:00Z"
          timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z") ¦ 0
          timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z") ¦ -1
          timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:59:00-01:00") ¦ -1
          tobool("true")                               ¦ true
          tonumber("1")                                ¦ 1
          tostring(1)                                  ¦ "1"
          tostring(true)                               ¦ "true"
          tostring(null)                               ¦ null
          tolist(["a", "b"])                           ¦ ["a","b"]
          toset(["c", "b", "b"])                       ¦ ["b","c"]
          tomap({"a" = "foo", "b" = true})             ¦ {"a":"foo","b":"true"}
          sensitive("x")                               ¦ "x"
          nonsensitive("x")                            ¦ "x"
          can(local.missing)                           ¦ false
          can(local.name)                              ¦ true
          try(local.missing, "fallback")               ¦ "fallback"
          try(local.name, "fallback")                  ¦ "app"
          dirname("foo/bar/baz.txt")                   ¦ "foo/bar"
          basename("foo/bar/baz.txt")                  ¦ "baz.txt"
          """)
  void functionGivesTheValueTerraformDocuments(String call, String expected) {
    assertThat(json(evaluate(call))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = "¦",
      quoteCharacter = '`',
      textBlock =
          """
          regex("[0-9]+", "abc")        ¦ regex(): pattern did not match any part of the given string
          index(["a"], "b")             ¦ index(): item not found
          one(["a", "b"])               ¦ one(): must be a list, set, or tuple value with either zero or one elements
          lookup({a = 1}, "b")          ¦ lookup(): the given key "b" does not exist in the map
          upper()                       ¦ upper() takes 1 argument, found 0
          parseint("12", 99)            ¦ parseint(): base must be a whole number between 2 and 62 inclusive
          element([], 0)                ¦ element(): cannot use element function with an empty list
          zipmap(["a"], [])             ¦ zipmap(): number of keys (1) does not match number of values (0)
          cidrsubnet("10.0.0.0/30", 4, 1) ¦ cidrsubnet(): insufficient address space to extend prefix of 30 by 4
          """)
  void functionGivenBadArgumentsIsUnknownNamingTheFunction(String call, String reason) {
    assertThat(json(evaluate(call))).isEqualTo("unknown: live/app/terragrunt.hcl:1: " + reason);
  }
}
