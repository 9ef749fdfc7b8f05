/**
 * The AWS adapters behind core's ports (Step Functions, SSM, SES, ECS, S3, Secrets Manager, Lambda
 * invoke), the metadb's connection on AWS, {@link io.livegate.aws.AwsEngine}: the engine as every
 * AWS entry point builds it, and what the tasks and the CLI read about a deployed stack: a task's
 * own log stream ({@link io.livegate.aws.TaskLogLink}) and {@code livegate doctor --aws}'s checks
 * ({@link io.livegate.aws.AwsDoctor}).
 */
package io.livegate.aws;
