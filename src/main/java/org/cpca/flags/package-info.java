/**
 * The command-line flags that more than one command line declares, as picocli mixins:
 * the inputs ({@link org.cpca.flags.InputFlags}) and the linear methods' settings
 * ({@link org.cpca.flags.LinearMethodFlags}) of {@code cpca fit} and {@code cpca-spark
 * fit}, so that their names, defaults, help texts and parsing are written once. Knows no
 * front end (docs/architecture.md).
 */
package org.cpca.flags;
