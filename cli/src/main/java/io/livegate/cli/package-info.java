/** The livegate command line: its commands and the composition root that wires them. */
package io.livegate.cli;
