package io.livegate.cli.local;

import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** A vote request from the local outbox, read with a real MIME parser (Jakarta Mail). */
public record SentMail(
    Path file, String unit, String voter, String approveLink, String rejectLink) {
  private static final Pattern SUBJECT =
      Pattern.compile(
          "\\[livegate] approve (?:DESTROYING )?(?:\\(drift reconcile\\) )?(.+) \\(.+\\)\\?");
  private static final Pattern APPROVE = Pattern.compile("(?m)^Approve: (\\S+)$");
  private static final Pattern REJECT = Pattern.compile("(?m)^Reject: +(\\S+)$");

  /** Parses an .eml file the way a mail client would; fails when it is not a valid message. */
  static MimeMessage parse(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      MimeMessage message = new MimeMessage(Session.getInstance(new Properties()), in);
      message.getContent(); // parses the whole message now, while the file is open
      return message;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (MessagingException e) {
      throw new IllegalStateException(file + " is not a parseable message", e);
    }
  }

  /** The plain-text part of a vote request. */
  static String text(MimeMessage message) throws IOException, MessagingException {
    return (String) ((Multipart) message.getContent()).getBodyPart(0).getContent();
  }

  public static SentMail read(Path file) {
    try {
      MimeMessage message = parse(file);
      Matcher subject = SUBJECT.matcher(message.getSubject());
      String text = text(message);
      Matcher approve = APPROVE.matcher(text);
      Matcher reject = REJECT.matcher(text);
      if (!subject.matches() || !approve.find() || !reject.find()) {
        throw new IllegalStateException(file + " is not a vote request:\n" + text);
      }
      return new SentMail(
          file,
          subject.group(1),
          message.getAllRecipients()[0].toString(),
          approve.group(1),
          reject.group(1));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (MessagingException e) {
      throw new IllegalStateException(file + " is not a parseable message", e);
    }
  }

  /** Every vote request in the outbox, by file name. */
  public static List<SentMail> in(Path outbox) {
    try (Stream<Path> files = Files.list(outbox)) {
      return files
          .filter(file -> file.getFileName().toString().endsWith(".eml"))
          .sorted()
          .map(SentMail::read)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
