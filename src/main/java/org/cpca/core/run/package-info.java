/**
 * Choosing and running a method by name: the user's settings ({@link
 * org.cpca.core.run.Settings}: the shared settings, and the chosen family's own options
 * parsed by its declaration), the registry of the families ({@link
 * org.cpca.core.run.Families}), the runner ({@link org.cpca.core.run.MethodRunner}) and the
 * choice of the main model. Every front end (Fiji commands, macros, the command lines) goes
 * through here. The top of the core: the method families below declare their own
 * settings, run on a {@code core.family.FamilyInput} and return a {@link
 * org.cpca.core.result.Solution}, and never use this package.
 */
package org.cpca.core.run;
