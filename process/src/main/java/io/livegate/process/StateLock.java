package io.livegate.process;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A terraform state lock as a refused command reports its holder ("Error acquiring the state lock"
 * followed by the "Lock Info" block). The S3 (lock file or DynamoDB), GCS, azurerm and local
 * backends report the holder there; the http backend reports the requester instead, whose operation
 * is never an apply, so such a lock is never taken for one that an interrupted apply left.
 *
 * @param id the lock id that {@code force-unlock} takes
 * @param operation terraform's operation type, e.g. {@code OperationTypeApply}
 * @param who {@code user@host} of the process that took it
 * @param created when it was taken
 */
public record StateLock(String id, String operation, String who, Instant created) {
  private static final String REFUSED = "Error acquiring the state lock";
  private static final String APPLY = "OperationTypeApply";

  /**
   * Terraform prints {@code Created} as Go prints a time: {@code 2026-11-25 04:40:23.51667053 +0000
   * UTC}.
   */
  private static final DateTimeFormatter CREATED =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd HH:mm:ss")
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .appendPattern(" xx 'UTC'")
          .toFormatter();

  /**
   * The lock that refused a command, if {@code output} is such a refusal with a complete holder.
   */
  public static Optional<StateLock> holder(String output) {
    int refused = output.indexOf(REFUSED);
    if (refused < 0) {
      return Optional.empty();
    }
    Map<String, String> fields = new LinkedHashMap<>();
    List<String> lines = output.substring(refused).lines().toList();
    boolean inInfo = false;
    for (String raw : lines) {
      String line = raw.replaceFirst("^[│|]", "").strip();
      if (line.equals("Lock Info:")) {
        inInfo = true;
      } else if (inInfo) {
        int colon = line.indexOf(':');
        if (colon <= 0) {
          break;
        }
        fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
    }
    String id = fields.get("ID");
    String operation = fields.get("Operation");
    String who = fields.get("Who");
    String created = fields.get("Created");
    if (id == null || id.isEmpty() || operation == null || who == null || created == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new StateLock(id, operation, who, OffsetDateTime.parse(created, CREATED).toInstant()));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether this is the lock that an apply started at {@code started} by {@code who} took and left
   * behind when it was killed: an apply's lock, taken by the same user on the same host, no earlier
   * than that apply started. A lock that anything else holds fails this test and is never broken.
   */
  public boolean leftBy(ApplyStart start) {
    return operation.equals(APPLY)
        && who.equals(start.who())
        && !created.isBefore(start.at().minusSeconds(1));
  }

  /**
   * What livegate records before it starts an apply, so that a resumed run can recognise the state
   * lock that apply leaves if it is killed.
   *
   * @param at when the apply started
   * @param who {@code user@host}, as terraform names a lock's holder
   */
  public record ApplyStart(Instant at, String who) {
    /** The start of an apply that this process is about to run. */
    static ApplyStart now() {
      return new ApplyStart(Instant.now(), System.getProperty("user.name") + "@" + hostname());
    }

    void write(Path file) throws IOException {
      Files.writeString(file, at + "\n" + who + "\n");
    }

    static Optional<ApplyStart> read(Path file) {
      try {
        List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
        return lines.size() < 2
            ? Optional.empty()
            : Optional.of(new ApplyStart(Instant.parse(lines.get(0)), lines.get(1)));
      } catch (IOException | DateTimeParseException e) {
        return Optional.empty();
      }
    }

    /** The host name as Go's os.Hostname gives it on Linux: the kernel's, not a DNS answer. */
    private static String hostname() {
      try {
        Path kernel = Path.of("/proc/sys/kernel/hostname");
        return Files.isReadable(kernel)
            ? Files.readString(kernel).strip()
            : InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        return "unknown";
      }
    }
  }
}
