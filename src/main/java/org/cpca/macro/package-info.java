/**
 * The ImageJ 1.x macro extension: the {@code Ext.*} functions for macros in plain ImageJ
 * and Fiji.
 */
package org.cpca.macro;
