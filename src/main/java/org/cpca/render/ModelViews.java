package org.cpca.render;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import ij.ImagePlus;

import org.cpca.core.CpcaModel;
import org.cpca.image.ComponentImages;
import org.cpca.image.FeatureLayout;

/**
 * How fitted models are shown, the same in Fiji, in macros and on the command line:
 * names ("cPC1", "α = 0 (PCA)"), eigen-image stacks and scatter plots.
 */
public final class ModelViews {

	private ModelViews() {}

	/** α as text: "0", "2.5", "inf", or "" for methods without α (6 significant digits). */
	public static String alphaText(final double alpha) {
		if (Double.isNaN(alpha)) return "";
		if (alpha == Double.POSITIVE_INFINITY) return "inf";
		if (alpha == 0) return "0";
		return new BigDecimal(alpha).round(new MathContext(6)).stripTrailingZeros()
			.toPlainString();
	}

	/** "PC" for PCA, "cPC" for cPCA. */
	public static String prefix(final CpcaModel m) {
		return "pca".equals(m.method()) ? "PC" : "cPC";
	}

	/** "PCA", "α = 0 (PCA)" or "cPCA α = 2.5". */
	public static String title(final CpcaModel m) {
		if ("pca".equals(m.method())) return "PCA";
		return m.alpha() == 0 ? "α = 0 (PCA)" : "cPCA α = " + alphaText(m.alpha());
	}

	/** A label for one component: "cPC1 α=2.5 λ=0.123" (no α for PCA). */
	public static String componentLabel(final CpcaModel m, final int c) {
		return prefix(m) + (c + 1) + ("pca".equals(m.method()) ? "" : " α=" + alphaText(m
			.alpha())) + " λ=" + String.format(Locale.ROOT, "%.4g", m.eigenvalues()[c]);
	}

	/**
	 * The eigen-images of every model, one 32-bit slice per component and α, labelled
	 * with component, α and eigenvalue, blue–white–red and centred on zero.
	 */
	public static ImagePlus eigenImages(final String title, final List<CpcaModel> models,
		final FeatureLayout layout)
	{
		final List<double[]> all = new ArrayList<>();
		final List<String> labels = new ArrayList<>();
		for (final CpcaModel m : models) {
			final double[][] comps = m.components();
			for (int c = 0; c < comps.length; c++) {
				all.add(comps[c]);
				labels.add(componentLabel(m, c));
			}
		}
		return ComponentImages.eigenImages(title, all.toArray(new double[0][]), layout,
			labels);
	}

	/**
	 * An eigen-image stack as one RGB picture: the slices side by side (at most
	 * {@code columns} per row), each enlarged to about 192 pixels wide and drawn with the
	 * stack's lookup table and display range, its slice label written underneath.
	 */
	public static ImagePlus eigenImageMontage(final ImagePlus stack, final int columns) {
		final int n = stack.getStackSize();
		final int cols = Math.min(columns, n), rows = (n + cols - 1) / cols;
		final int scale = Math.max(1, 192 / Math.max(1, stack.getWidth()));
		final int w = stack.getWidth() * scale, h = stack.getHeight() * scale, text = 36,
				gap = 6;
		final ij.process.ColorProcessor out = new ij.process.ColorProcessor(cols * (w + gap),
			rows * (h + text));
		out.setColor(java.awt.Color.WHITE);
		out.fill();
		out.setColor(java.awt.Color.BLACK);
		out.setFont(new java.awt.Font("SansSerif", java.awt.Font.PLAIN, 12));
		out.setAntialiasedText(true);
		for (int i = 0; i < n; i++) {
			final ij.process.ImageProcessor ip = stack.getStack().getProcessor(i + 1);
			ip.setLut(stack.getProcessor().getLut());
			ip.setMinAndMax(stack.getDisplayRangeMin(), stack.getDisplayRangeMax());
			ip.setInterpolationMethod(ij.process.ImageProcessor.NONE);
			final ij.process.ImageProcessor tile = ip.convertToRGB().resize(w, h);
			final int x = (i % cols) * (w + gap), y = (i / cols) * (h + text);
			out.insert(tile, x, y);
			final String label = stack.getStack().getSliceLabel(i + 1);
			if (label == null) continue;
			final int split = label.indexOf(" λ=");
			out.drawString(split < 0 ? label : label.substring(0, split), x + 2, y + h + 15);
			if (split >= 0) out.drawString(label.substring(split + 1), x + 2, y + h + 30);
		}
		return new ImagePlus(stack.getTitle(), out);
	}

	/**
	 * One scatter plot per model of the target scores on the first two components
	 * (component 1 against sample number when k = 1), coloured by class, drawing every
	 * {@code stride}-th sample; several models are combined two panels per row.
	 *
	 * @param classes one class per target sample, or {@code null}
	 */
	public static ImagePlus scatterPlot(final List<CpcaModel> models,
		final List<String> classes, final String targetName, final int stride)
	{
		final List<ImagePlus> panels = scatterPanels(models, classes, targetName, stride);
		return panels.size() == 1 ? panels.get(0) : Panels.montage(panels, 2);
	}

	/** The panels of {@link #scatterPlot}, one per model. */
	public static List<ImagePlus> scatterPanels(final List<CpcaModel> models,
		final List<String> classes, final String targetName, final int stride)
	{
		final List<ImagePlus> panels = new ArrayList<>();
		for (final CpcaModel m : models) {
			final double[][] s = m.targetScores();
			final int count = (s.length + stride - 1) / stride;
			final double[] x = new double[count], y = new double[count];
			final List<String> shown = classes == null ? null : new ArrayList<>(count);
			for (int q = 0; q < count; q++) {
				final int i = q * stride;
				x[q] = s[i][0];
				y[q] = s[i].length > 1 ? s[i][1] : i + 1;
				if (shown != null) shown.add(classes.get(i));
			}
			panels.add(ScatterPlot.render(title(m) + " (" + targetName + ")", prefix(m) + "1",
				s[0].length > 1 ? prefix(m) + "2" : "sample", x, y, shown));
		}
		return panels;
	}
}
