/**
 * The CDK app that deploys livegate into one AWS account: its typed configuration ({@link
 * io.livegate.cdk.LivegateConfig}, read by LivegateConfigJson and checked by
 * LivegateConfigValidator), and {@link io.livegate.cdk.LivegateStack}, composed of one construct
 * per concern (Network, Metadb, Secrets, Tasks, Flow, Functions, Grants).
 */
package io.livegate.cdk;
