/**
 * Choosing and running a method by name: the {@link org.cpca.core.run.Method} names, the
 * user's settings ({@link org.cpca.core.run.MethodSettings}), the dispatcher ({@link
 * org.cpca.core.run.MethodRunner}) and what a run produced ({@link
 * org.cpca.core.run.Solution}). Every front end (Fiji commands, macros, the command
 * line) goes through here.
 */
package org.cpca.core.run;
