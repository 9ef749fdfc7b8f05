/**
 * The CDK app that deploys livegate into one AWS account: its typed configuration, the stack, and
 * the names it shares with the Lambdas and tasks.
 */
package io.livegate.cdk;
