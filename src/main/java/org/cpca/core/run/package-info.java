/**
 * Choosing and running a method by name: the user's settings ({@link
 * org.cpca.core.run.Settings}, and the runner's view {@link
 * org.cpca.core.run.MethodSettings}), the dispatcher ({@link
 * org.cpca.core.run.MethodRunner}) and the choice of the main model. Every front end (Fiji
 * commands, macros, the command lines) goes through here. The top of the core: the method
 * families below take their own parameters and return a {@link
 * org.cpca.core.result.Solution}, and never use this package.
 */
package org.cpca.core.run;
