/** How the CLI shows a deploy stack: text, Graphviz dot and Mermaid (JSON lives in core). */
package io.livegate.cli.render;
