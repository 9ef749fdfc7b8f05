package io.livegate.cdk;

import io.livegate.statemachine.RuntimeContract;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.rds.AuroraPostgresClusterEngineProps;
import software.amazon.awscdk.services.rds.AuroraPostgresEngineVersion;
import software.amazon.awscdk.services.rds.BackupProps;
import software.amazon.awscdk.services.rds.ClusterInstance;
import software.amazon.awscdk.services.rds.Credentials;
import software.amazon.awscdk.services.rds.DatabaseCluster;
import software.amazon.awscdk.services.rds.DatabaseClusterEngine;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.constructs.Construct;

/**
 * The metadb: an encrypted Aurora PostgreSQL Serverless v2 cluster with generated credentials,
 * which admits the Lambdas' and the tasks' security groups on PostgreSQL's port and nobody else;
 * and its schema, migrated by the {@code migrate} Lambda through a custom resource on every deploy
 * that changes a migration. Like every construct of the stack, it puts its resources in the stack
 * ({@link LivegateStack} says why).
 */
public final class Metadb extends Construct {
  static final String DATABASE = "livegate";

  /**
   * @param network where the cluster and the migration run
   * @param functionFactory builds the migration's Lambda
   * @param migrationsHash the migrations' hash ({@link SourceTree#migrationsHash()}): when it
   *     changes, CloudFormation runs the migration again
   * @param minCapacity the minimum Aurora capacity units
   * @param maxCapacity the maximum
   * @param deletionProtection whether the cluster refuses deletion
   */
  public record Props(
      Network network,
      FunctionFactory functionFactory,
      String migrationsHash,
      double minCapacity,
      double maxCapacity,
      boolean deletionProtection) {}

  private final DatabaseCluster cluster;
  private final Function migrate;
  private final CustomResource schema;

  public Metadb(Construct scope, String id, Props props) {
    super(scope, id);
    Stack stack = Stack.of(this);
    Network network = props.network();
    this.cluster =
        DatabaseCluster.Builder.create(stack, "Metadb")
            .engine(
                DatabaseClusterEngine.auroraPostgres(
                    AuroraPostgresClusterEngineProps.builder()
                        .version(AuroraPostgresEngineVersion.VER_16_6)
                        .build()))
            .credentials(Credentials.fromGeneratedSecret("livegate"))
            .defaultDatabaseName(DATABASE)
            .writer(ClusterInstance.serverlessV2("Writer"))
            .serverlessV2MinCapacity(props.minCapacity())
            .serverlessV2MaxCapacity(props.maxCapacity())
            .vpc(network.vpc())
            .vpcSubnets(network.privateSubnets())
            .securityGroups(List.of(network.metadbSecurityGroup()))
            .storageEncrypted(true)
            .deletionProtection(props.deletionProtection())
            .backup(BackupProps.builder().retention(Duration.days(7)).build())
            .removalPolicy(RemovalPolicy.SNAPSHOT)
            .build();
    for (SecurityGroup client :
        List.of(network.lambdaSecurityGroup(), network.taskSecurityGroup())) {
      network
          .metadbSecurityGroup()
          .addIngressRule(client, Port.tcp(5432), "PostgreSQL from " + client.getNode().getId());
    }

    // The Lambdas' live aliases depend on this resource (Functions), so new code goes live only
    // after the schema it expects is migrated.
    this.migrate =
        props
            .functionFactory()
            .create(
                new FunctionFactory.Spec(
                    "Migrate",
                    "migrate",
                    RuntimeContract.Handlers.MIGRATE,
                    1024,
                    Duration.minutes(5),
                    environment(),
                    false,
                    null));
    this.schema =
        CustomResource.Builder.create(stack, "MetadbSchema")
            .serviceToken(migrate.getFunctionArn())
            .resourceType("Custom::LivegateMetadbSchema")
            .properties(Map.of("MigrationsHash", props.migrationsHash()))
            .build();
    schema.getNode().addDependency(cluster);
    schema.getNode().addDependency(network.vpc());
  }

  public DatabaseCluster cluster() {
    return cluster;
  }

  /** The generated credentials, which every entry point that connects reads. */
  public ISecret secret() {
    return cluster.getSecret();
  }

  /** The {@code migrate} Lambda, which the schema custom resource calls. */
  public Function migrate() {
    return migrate;
  }

  /** The migrated schema: what a function that uses it depends on. */
  public CustomResource schema() {
    return schema;
  }

  /** Where an entry point connects: the JDBC URL (TLS required) and the credentials' secret. */
  public Map<String, String> environment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put(
        RuntimeContract.Metadb.URL,
        "jdbc:postgresql://"
            + cluster.getClusterEndpoint().getSocketAddress()
            + "/"
            + DATABASE
            + "?sslmode=require");
    environment.put(RuntimeContract.Metadb.SECRET, cluster.getSecret().getSecretArn());
    return environment;
  }
}
