/**
 * The picocli command line: {@code cpca fit}, {@code apply}, {@code demo}, {@code
 * generate} and {@code bench} (the benchmarks themselves live in {@code
 * org.cpca.bench}).
 */
package org.cpca.cli;
