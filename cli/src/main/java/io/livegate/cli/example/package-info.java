/** The bundled example live repository that the quick start and the demo use. */
package io.livegate.cli.example;
