/**
 * The picocli command line: {@code cpca fit}, {@code apply}, {@code demo}, {@code
 * generate} and {@code bench} (the benchmarks themselves live in {@code
 * org.cpca.bench}, in their own source set src/bench/java and jar, outside the plugin jar).
 */
package org.cpca.cli;
