/**
 * The deploy flow on Step Functions: the ASL definition (a resource next to this package) and the
 * names that the trigger, the approval Lambdas, terra-run and the CDK app share with it.
 */
package io.livegate.statemachine;
