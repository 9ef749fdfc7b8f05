/** The same scenarios through the local executor and through moto's Step Functions. */
package io.livegate.tests.conformance;
