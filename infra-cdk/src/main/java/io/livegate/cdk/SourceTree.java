package io.livegate.cdk;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The built repository the app deploys from: the Lambda jar, the ECS image's build context, and the
 * metadb migrations. Both jars come from {@code ./mvnw -pl lambdas,ecs-tasks,infra-cdk -am
 * package}.
 *
 * @param root the repository's root directory
 */
public record SourceTree(Path root) {
  static final String LAMBDA_JAR = "lambdas/target/livegate-lambdas.jar";
  static final String TASKS_JAR = "ecs-tasks/target/livegate-tasks.jar";
  static final String DOCKERFILE = "ecs-tasks/Dockerfile";
  static final String MIGRATIONS = "sql/src/main/resources/db/migration";

  /**
   * What the image build may see: the Dockerfile and the task jar, nothing else (docker ignore
   * syntax, later lines win). It keeps every module's target directory, with the Lambda jar and
   * test output, out of the image asset's hash and out of the upload.
   */
  static final List<String> IMAGE_CONTEXT =
      List.of(
          "*",
          "!ecs-tasks",
          "ecs-tasks/*",
          "!" + DOCKERFILE,
          "!ecs-tasks/target",
          "ecs-tasks/target/*",
          "!" + TASKS_JAR);

  /** The repository holding {@code start} or one of its parents. */
  public static SourceTree locate(Path start) {
    for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(DOCKERFILE))
          && Files.isDirectory(dir.resolve(MIGRATIONS))) {
        return new SourceTree(dir);
      }
    }
    throw new InvalidLivegateConfig(
        "cannot find the livegate repository (with " + DOCKERFILE + ") at or above " + start);
  }

  /** The shaded jar of every Lambda handler. */
  public Path lambdaJar() {
    return built(LAMBDA_JAR);
  }

  /** Checks that the image's build context holds the task jar the Dockerfile copies. */
  public Path imageContext() {
    built(TASKS_JAR);
    return root;
  }

  /**
   * A SHA-256 over the migrations' names and contents: the migration custom resource's property, so
   * that CloudFormation runs it again exactly when a migration is added or changed.
   */
  public String migrationsHash() {
    try (Stream<Path> files = Files.list(root.resolve(MIGRATIONS))) {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (Path file : files.filter(f -> f.toString().endsWith(".sql")).sorted().toList()) {
        digest.update(
            file.getFileName().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        digest.update((byte) 0);
        try (InputStream in = Files.newInputStream(file)) {
          digest.update(in.readAllBytes());
        }
        digest.update((byte) 0);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (IOException e) {
      throw new InvalidLivegateConfig(
          "cannot read the migrations in " + MIGRATIONS + ": " + e.getMessage());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private Path built(String relative) {
    Path file = root.resolve(relative);
    if (!Files.isRegularFile(file)) {
      throw new InvalidLivegateConfig(
          file
              + " is missing: build it first with"
              + " ./mvnw -pl lambdas,ecs-tasks,infra-cdk -am package -DskipTests"
              + " (from "
              + root
              + ")");
    }
    return file;
  }
}
