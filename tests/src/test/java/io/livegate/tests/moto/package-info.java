/**
 * The moto_server harness ({@link io.livegate.tests.moto.MotoServer}) and the smoke test that
 * proves the Step Functions integrations livegate's ASL uses run in it.
 */
package io.livegate.tests.moto;
