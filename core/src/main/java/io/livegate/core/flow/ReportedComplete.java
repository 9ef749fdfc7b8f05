package io.livegate.core.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The changes of a new plan that an earlier apply's own output already reported made. terraform
 * prints {@code ADDRESS: Creation complete} (or {@code Modifications complete}, {@code Destruction
 * complete}) as soon as the provider made the change, and saves the state after it; when saving
 * fails (a full disk: the state, {@code errored.tfstate} and the state it prints on stderr all fail
 * to be written), the state does not hold the change, so a plan made after it proposes the change
 * again, and applying that plan would make it twice: a second resource, a create-time provisioner
 * run again. Such a change must not be applied again without a person.
 *
 * <p>Changes are written as {@link PlanJson#changes} writes them: {@code ADDRESS: ACTION[,ACTION]}.
 * The line is matched where it starts or after white space, so that terragrunt's prefixes pass and
 * {@code module.m.x.y} is not taken for {@code x.y}.
 */
public final class ReportedComplete {
  private static final Map<String, String> COMPLETE =
      Map.of(
          "create", "Creation complete",
          "update", "Modifications complete",
          "delete", "Destruction complete");

  private ReportedComplete() {}

  /** The changes in {@code planned} of which {@code applyOutput} reports an action complete. */
  public static List<String> among(String applyOutput, List<String> planned) {
    List<String> reported = new ArrayList<>();
    for (String change : planned) {
      int split = change.lastIndexOf(": ");
      if (split < 0) {
        continue;
      }
      String address = change.substring(0, split);
      for (String action : change.substring(split + 2).split(",")) {
        String complete = COMPLETE.get(action);
        if (complete != null
            && Pattern.compile("(?m)(^|\\s)" + Pattern.quote(address + ": " + complete))
                .matcher(applyOutput)
                .find()) {
          reported.add(change);
          break;
        }
      }
    }
    return reported;
  }
}
