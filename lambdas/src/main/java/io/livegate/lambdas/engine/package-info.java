/** The engine's wiring on AWS, shared by the trigger and the webhook receiver. */
package io.livegate.lambdas.engine;
