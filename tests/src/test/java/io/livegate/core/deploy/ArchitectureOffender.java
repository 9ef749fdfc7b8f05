package io.livegate.core.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.api.Git;

/**
 * Everything the engine side of the domain must not do, in one of its packages, so that
 * ArchitectureTest can show its rules fail.
 */
@SuppressWarnings("unused")
public final class ArchitectureOffender {
  Map<String, String> environment() {
    return System.getenv();
  }

  Process start() throws IOException {
    return new ProcessBuilder(List.of("true")).start();
  }

  Process exec() throws IOException {
    return Runtime.getRuntime().exec(new String[] {"true"});
  }

  java.sql.Connection connection(javax.sql.DataSource dataSource) throws java.sql.SQLException {
    return dataSource.getConnection();
  }

  HttpResponse<String> fetch() throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1/")).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  com.fasterxml.jackson.databind.ObjectMapper mapper() {
    return new com.fasterxml.jackson.databind.ObjectMapper();
  }

  Git repository() throws Exception {
    return Git.init().call();
  }
}
