package io.livegate.core.pr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.Html;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * livegate's one comment on a pull request: for one head commit, a collapsed block per unit with
 * its plan summary, its output and a link to its log.
 *
 * <p>The comment is its own store. Each block starts with a hidden marker that carries the block's
 * data as base64url JSON, so the units' tasks, which share nothing else, can each read the comment,
 * replace their own block and write it back; nothing a pull request controls (a unit path, plan
 * output) can end the marker early. The rendered text is derived from the markers only.
 */
public final class PlanComment {
  /** The comment's first line, by which livegate finds it. */
  public static final String MARKER = "<!-- livegate:plans -->";

  /** A unit's output is cut to this many characters; the log has all of it. */
  static final int MAX_DETAIL = 3000;

  /** GitHub refuses comments longer than 65536 characters; this leaves room to spare. */
  static final int MAX_BODY = 60000;

  private static final ObjectMapper JSON = Jackson.MAPPER;
  private static final Pattern HEAD = Pattern.compile("<!-- livegate:head ([0-9a-f]{7,64}) -->");
  private static final Pattern ENTRY = Pattern.compile("<!-- livegate:unit ([A-Za-z0-9_-]+) -->");
  private static final Pattern BACKTICKS = Pattern.compile("`+");
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{7,64}");
  private static final String CUT = "\n… (cut; the log has all of it)";

  /** Where a unit's plan stands. */
  public enum State {
    PLANNING("⏳"),
    PLANNED("✅"),
    FAILED("❌");

    private final String icon;

    State(String icon) {
      this.icon = icon;
    }
  }

  /**
   * One unit's block.
   *
   * @param summary one line: "+2 ~0 -1", or the error's headline
   * @param detail the plan's text or the error, cut to {@value #MAX_DETAIL} characters
   * @param logUrl a link to the log; may be empty
   */
  public record Entry(String unit, State state, String summary, String detail, String logUrl) {
    public Entry {
      summary = summary == null ? "" : summary.replaceAll("\\s+", " ").strip();
      detail = cut(detail == null ? "" : detail.strip());
      logUrl = logUrl == null ? "" : logUrl;
    }

    /** Whether {@code other} says the same about the unit; the detail may have been left out. */
    boolean sameOutcome(Entry other) {
      return unit.equals(other.unit) && state == other.state && summary.equals(other.summary);
    }

    private static String cut(String text) {
      if (text.length() <= MAX_DETAIL) {
        return text;
      }
      int end = MAX_DETAIL - CUT.length();
      if (Character.isHighSurrogate(text.charAt(end - 1))) {
        end--;
      }
      return text.substring(0, end) + CUT;
    }
  }

  private final String headSha;
  private final SortedMap<String, Entry> entries;

  private PlanComment(String headSha, Map<String, Entry> entries) {
    this.headSha = headSha;
    this.entries = new TreeMap<>(entries);
  }

  /** A comment for {@code headSha} whose units are all still planning. */
  public static PlanComment planning(String headSha, Collection<String> units) {
    if (headSha == null || !COMMIT.matcher(headSha).matches()) {
      throw new LivegateException("a plan comment needs a commit sha, not '" + headSha + "'");
    }
    Map<String, Entry> entries = new TreeMap<>();
    for (String unit : units) {
      entries.put(unit, new Entry(unit, State.PLANNING, "planning", "", ""));
    }
    return new PlanComment(headSha, entries);
  }

  /** The comment that {@code body} renders; empty when it is not one of livegate's. */
  public static Optional<PlanComment> parse(String body) {
    if (body == null || !body.startsWith(MARKER)) {
      return Optional.empty();
    }
    Matcher head = HEAD.matcher(body);
    if (!head.find()) {
      return Optional.empty();
    }
    Map<String, Entry> entries = new TreeMap<>();
    Matcher entry = ENTRY.matcher(body);
    while (entry.find()) {
      decode(entry.group(1)).ifPresent(decoded -> entries.put(decoded.unit(), decoded));
    }
    return Optional.of(new PlanComment(head.group(1), entries));
  }

  public String headSha() {
    return headSha;
  }

  public Optional<Entry> entry(String unit) {
    return Optional.ofNullable(entries.get(unit));
  }

  /** This comment with {@code entry} in place of the unit's block, or added. */
  public PlanComment with(Entry entry) {
    Map<String, Entry> updated = new TreeMap<>(entries);
    updated.put(entry.unit(), entry);
    return new PlanComment(headSha, updated);
  }

  /**
   * The comment's Markdown. When the units' output together would pass GitHub's size limit, the
   * output is left out and only the summaries and log links remain.
   */
  public String render() {
    String full = render(entries);
    if (full.length() <= MAX_BODY) {
      return full;
    }
    Map<String, Entry> summariesOnly = new TreeMap<>();
    entries.forEach(
        (unit, entry) ->
            summariesOnly.put(
                unit,
                new Entry(
                    unit,
                    entry.state(),
                    entry.summary(),
                    entry.detail().isEmpty()
                        ? ""
                        : "(output left out: the comment would pass GitHub's size limit;"
                            + " see the log)",
                    entry.logUrl())));
    return render(summariesOnly);
  }

  private String render(Map<String, Entry> blocks) {
    StringBuilder out =
        new StringBuilder(MARKER)
            .append("\n<!-- livegate:head ")
            .append(headSha)
            .append(" -->\n### livegate plans\n\n");
    if (blocks.isEmpty()) {
      out.append("No units changed at `")
          .append(headSha, 0, Math.min(12, headSha.length()))
          .append("`.\n");
      return out.toString();
    }
    out.append("The units this pull request changes, planned at `")
        .append(headSha, 0, Math.min(12, headSha.length()))
        .append("`. Nothing is applied before the merge and a vote.\n");
    for (Entry entry : blocks.values()) {
      out.append("\n<!-- livegate:unit ")
          .append(encode(entry))
          .append(" -->\n<details><summary>")
          .append(entry.state().icon)
          .append(" <code>")
          .append(Html.escape(entry.unit()))
          .append("</code>: ")
          .append(Html.escape(entry.summary()))
          .append("</summary>\n\n");
      if (!entry.detail().isEmpty()) {
        String fence = fence(entry.detail());
        out.append(fence).append("text\n").append(entry.detail()).append('\n').append(fence);
        out.append("\n\n");
      }
      if (isWebLink(entry.logUrl())) {
        out.append("<a href=\"").append(Html.escape(entry.logUrl())).append("\">log</a>\n\n");
      }
      out.append("</details>\n");
    }
    return out.toString();
  }

  /**
   * A backtick fence longer than any run of backticks in {@code text}, so it cannot close early.
   */
  private static String fence(String text) {
    int longest = 0;
    Matcher run = BACKTICKS.matcher(text);
    while (run.find()) {
      longest = Math.max(longest, run.group().length());
    }
    return "`".repeat(Math.max(3, longest + 1));
  }

  private static boolean isWebLink(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    return lower.startsWith("https://") || lower.startsWith("http://");
  }

  private static String encode(Entry entry) {
    String json =
        JSON.createObjectNode()
            .put("unit", entry.unit())
            .put("state", entry.state().name())
            .put("summary", entry.summary())
            .put("detail", entry.detail())
            .put("log", entry.logUrl())
            .toString();
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  /** A block's data; empty when the marker was not written by livegate. */
  private static Optional<Entry> decode(String encoded) {
    try {
      JsonNode node =
          JSON.readTree(new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8));
      return Optional.of(
          new Entry(
              node.get("unit").asText(),
              State.valueOf(node.get("state").asText()),
              node.path("summary").asText(),
              node.path("detail").asText(),
              node.path("log").asText()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
