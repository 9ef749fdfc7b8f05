/**
 * The deploy stack: what a scan hands the engine (the executions in layers, the accounts in order,
 * the deleted units, the warnings) and its JSON, the create-deploy-stack contract.
 */
package io.livegate.core.stack;
