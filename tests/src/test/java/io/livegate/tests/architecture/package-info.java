/** The layering rules: the module graph from the poms, and what each ring's classes may reach. */
package io.livegate.tests.architecture;
