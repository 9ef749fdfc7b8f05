/**
 * The AWS adapters behind core's ports (Step Functions, SSM, SES, ECS, S3, Secrets Manager, Lambda
 * invoke), the metadb's connection on AWS, and {@link io.livegate.aws.AwsEngine}: the engine as
 * every AWS entry point builds it.
 */
package io.livegate.aws;
