package org.cpca.render;

import java.awt.Color;

/**
 * A fixed colour-blind-friendly palette (Okabe &amp; Ito), ordered so that the first
 * colours are the most distinct. Class {@code i} gets {@link #color(int)}; beyond the
 * palette's size colours repeat and {@link #shape(int)} changes instead.
 */
public final class Palette {

	private static final Color[] COLORS = { //
		new Color(0, 114, 178), // blue
		new Color(213, 94, 0), // vermillion
		new Color(0, 158, 115), // bluish green
		new Color(204, 121, 167), // reddish purple
		new Color(230, 159, 0), // orange
		new Color(86, 180, 233), // sky blue
		new Color(240, 228, 66), // yellow
		Color.BLACK };

	/** ij.gui.Plot marker shapes used after the colours have been used up once. */
	private static final String[] SHAPES = { "circle", "triangle", "box", "diamond", "x",
		"cross" };

	private Palette() {}

	/** Number of distinct colours. */
	public static int size() {
		return COLORS.length;
	}

	/** Colour of class {@code i} (0-based). */
	public static Color color(final int i) {
		return COLORS[Math.floorMod(i, COLORS.length)];
	}

	/** ij.gui.Plot shape of class {@code i}: circles for the first {@link #size()}. */
	public static String shape(final int i) {
		return SHAPES[Math.floorMod(i / COLORS.length, SHAPES.length)];
	}
}
