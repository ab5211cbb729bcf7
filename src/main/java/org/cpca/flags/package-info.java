/**
 * The command-line flags that more than one command line declares, as picocli mixins:
 * the inputs ({@link InputFlags}) and the linear methods' settings
 * ({@link LinearMethodFlags}) of {@code cpca fit} and {@code cpca-spark
 * fit}, so that their names, defaults, help texts and parsing are written once. Knows no
 * front end (docs/architecture.md).
 */
package org.cpca.flags;
