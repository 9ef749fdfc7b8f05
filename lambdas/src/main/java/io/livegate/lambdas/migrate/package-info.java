/** The metadb's schema migration, run by CloudFormation as a custom resource on every deploy. */
package io.livegate.lambdas.migrate;
