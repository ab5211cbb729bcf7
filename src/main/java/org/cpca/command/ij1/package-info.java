/**
 * Plain ImageJ 1.x plugins (no Fiji, no ImageJ2 layer): {@link CommandBridge} shows a
 * SciJava command's parameters in ImageJ's GenericDialog with the same macro keys as in
 * Fiji and runs the same command; {@link ImageOutputs} shows image outputs of commands
 * run by other commands; {@link SampleData} opens the generated sample images (Fiji and
 * ImageJ). The menus: {@code src/main/ij1/plugins.config} (only in the ImageJ bundle, so
 * that Fiji lists each command once) and {@code src/main/resources/plugins.config}.
 * Installation: docs/install.md.
 */
package org.cpca.command.ij1;
