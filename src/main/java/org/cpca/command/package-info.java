/**
 * The Fiji (SciJava) menu commands: parameters → settings → the core → images, plots and
 * tables. Thin: no mathematics here.
 */
package org.cpca.command;
