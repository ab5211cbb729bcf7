/**
 * The Fiji (SciJava) menu commands: parameters → settings → the core → images, plots and
 * tables. Thin: no mathematics here. Dialogs come in two steps ({@link
 * TwoStepDialog}: first the inputs and the method, then only that
 * choice's fields), in Fiji through {@link DialogSteps} and in plain
 * ImageJ through {@code ij1.CommandBridge} (docs/fiji.md).
 */
package org.cpca.command;
