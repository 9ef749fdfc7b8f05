/**
 * The deploy flow on AWS against moto: the real ASL in moto's Step Functions, the production
 * handlers, jobs and adapters, and a harness that plays the ECS containers, the voters and
 * EventBridge.
 */
package io.livegate.tests.aws;
