/**
 * The engine as one object: every use case of a deployment wired onto one set of ports. Each
 * runtime (the AWS entry points, the local runtime) and every test harness builds it here.
 */
package io.livegate.core.engine;
