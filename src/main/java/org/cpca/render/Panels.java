package org.cpca.render;

import ij.ImagePlus;
import ij.process.ColorProcessor;

import java.awt.Color;
import java.util.List;

/**
 * Combines several images (e.g. one scatter plot per α) into one RGB image laid out in
 * a grid.
 */
public final class Panels {

	private Panels() {}

	/**
	 * Places the panels row by row, left to right, each in a cell of the size of the
	 * largest panel (top-left aligned, white around smaller ones). Each panel is drawn
	 * as displayed (its current slice, its lookup table and display range, its overlay).
	 *
	 * @param columns panels per row; fewer are used when there are fewer panels
	 * @return an RGB image of {@code columns × cellWidth} by {@code rows × cellHeight}
	 *         pixels, where {@code rows = ceil(panels / columns)}
	 */
	public static ImagePlus montage(final List<ImagePlus> panels, final int columns) {
		if (panels == null || panels.isEmpty()) throw new IllegalArgumentException(
			"there are no panels to combine");
		if (columns < 1) throw new IllegalArgumentException("columns is " + columns +
			": give at least 1 column");
		final int cols = Math.min(columns, panels.size());
		final int rows = (panels.size() + cols - 1) / cols;
		int cellW = 0;
		int cellH = 0;
		for (final ImagePlus p : panels) {
			cellW = Math.max(cellW, p.getWidth());
			cellH = Math.max(cellH, p.getHeight());
		}
		final ColorProcessor out = new ColorProcessor(cols * cellW, rows * cellH);
		out.setColor(Color.WHITE);
		out.fill();
		for (int i = 0; i < panels.size(); i++) {
			out.insert(Rgb.processor(panels.get(i)), (i % cols) * cellW, (i / cols) * cellH);
		}
		return new ImagePlus("montage", out);
	}
}
