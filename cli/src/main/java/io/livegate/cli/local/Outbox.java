package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.vote.VoteMail;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.UUID;

/**
 * The local mailer: one RFC 5322 message per voter, written as an .eml file (plain text and HTML)
 * into the outbox directory, where any mail client can open it.
 */
public final class Outbox {
  private final Path directory;

  public Outbox(Path directory) {
    this.directory = directory;
  }

  /** Writes a vote request and returns its file. */
  public Path voteRequest(Execution execution, String voter, VoteMail mail) {
    String subject = mail.subject();
    String text = mail.text();
    String html = mail.html();
    String boundary = "livegate-" + UUID.randomUUID();
    String message =
        "From: livegate <livegate@localhost>\r\n"
            + "To: "
            + header(voter)
            + "\r\n"
            + "Subject: "
            + encodedWord(subject)
            + "\r\n"
            + "Date: "
            + DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now())
            + "\r\n"
            + "MIME-Version: 1.0\r\n"
            + "Content-Type: multipart/alternative; boundary=\""
            + boundary
            + "\"\r\n\r\n"
            + part(boundary, "text/plain", text)
            + part(boundary, "text/html", html)
            + "--"
            + boundary
            + "--\r\n";
    Path file = directory.resolve(execution.name() + "--" + fileSafe(voter) + ".eml");
    try {
      // Written beside and moved into place, so that whoever watches the outbox never reads half
      // a message.
      Path partial = Files.createTempFile(directory, "writing-", ".part");
      Files.writeString(partial, message, StandardCharsets.UTF_8);
      Files.move(
          partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return file;
    } catch (IOException e) {
      throw new LivegateException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static String part(String boundary, String type, String body) {
    String encoded = Base64.getMimeEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8));
    return "--"
        + boundary
        + "\r\nContent-Type: "
        + type
        + "; charset=UTF-8\r\n"
        + "Content-Transfer-Encoding: base64\r\n\r\n"
        + encoded
        + "\r\n";
  }

  /** Header values must not carry line breaks: a voter address comes from configuration. */
  private static String header(String value) {
    return value.replaceAll("[\\r\\n]", " ");
  }

  private static String encodedWord(String text) {
    return "=?UTF-8?B?"
        + Base64.getEncoder().encodeToString(header(text).getBytes(StandardCharsets.UTF_8))
        + "?=";
  }

  private static String fileSafe(String text) {
    return text.replaceAll("[^A-Za-z0-9@._-]", "_");
  }
}
