package io.livegate.scan.terragrunt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.scan.hcl.Evaluator;
import io.livegate.scan.hcl.HclDocument;
import io.livegate.scan.hcl.InvalidHcl;
import io.livegate.scan.hcl.Scope;
import io.livegate.scan.hcl.StandardFunctions;
import io.livegate.scan.hcl.Unknown;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A config's locals: every locals block, each local evaluated once and only when read. */
class LocalsTest {
  private final AtomicInteger calls = new AtomicInteger();
  private Locals locals;

  private Locals of(String text) {
    HclDocument document = HclDocument.parse("unit/terragrunt.hcl", text);
    Scope scope =
        new Scope() {
          @Override
          public Object variable(String name, String file, int line) {
            return name.equals("local")
                ? locals.asVariable()
                : Unknown.at(file, line, "no " + name);
          }

          @Override
          public Object call(
              String function, List<Supplier<Object>> arguments, String file, int line) {
            calls.incrementAndGet();
            return StandardFunctions.call(function, arguments, file, line);
          }
        };
    locals = new Locals(document, new Evaluator(scope));
    return locals;
  }

  @Test
  void localsOfEveryBlockReadEachOtherAndAreEvaluatedOnceWhenRead() {
    Locals read = of("locals {\n  a = upper(\"x\")\n}\nlocals {\n  b = \"${local.a}-y\"\n}\n");
    assertThat(calls).hasValue(0);

    assertThat(read.value("b")).isEqualTo("X-y");
    assertThat(read.value("a")).isEqualTo("X");
    assertThat(calls).as("upper() ran once").hasValue(1);
    assertThat(read.names()).containsExactly("a", "b");
  }

  @Test
  void aLocalThatRefersToItselfIsUnknownAndSaysSo() {
    Locals read = of("locals {\n  loop = local.loop + 1\n  fine = 2\n}\n");

    assertThat(read.value("loop"))
        .isInstanceOfSatisfying(
            Unknown.class,
            unknown ->
                assertThat(unknown.reason())
                    .isEqualTo("unit/terragrunt.hcl:2: local.loop refers to itself"));
    assertThat(read.value("fine")).isEqualTo(new BigDecimal("2"));
  }

  @Test
  void aLocalDefinedTwiceIsAnErrorNamingBothLines() {
    assertThatThrownBy(() -> of("locals {\n  a = 1\n}\nlocals {\n  a = 2\n}\n"))
        .isInstanceOf(InvalidHcl.class)
        .hasMessageContaining("unit/terragrunt.hcl")
        .hasMessageContaining("local 'a' is already defined on line 2");
  }
}
