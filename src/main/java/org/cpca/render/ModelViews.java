package org.cpca.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import ij.ImagePlus;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Method;
import org.cpca.image.ComponentImages;
import org.cpca.image.FeatureLayout;

/**
 * How fitted models are shown, the same in Fiji, in macros and on the command line:
 * names ("cPC1", "α = 0 (PCA)", "cPCA* β = 0.5"), eigen-image stacks and scatter plots.
 */
public final class ModelViews {

	private ModelViews() {}

	/** α as text: "0", "2.5", "inf", or "" for methods without α (6 significant digits). */
	public static String alphaText(final double alpha) {
		return FittedModel.alphaText(alpha);
	}

	/** The component prefix: "PC" for PCA, "cPC" for cPCA, … (see {@link Method}). */
	public static String prefix(final FittedModel m) {
		final Method method = Method.of(m);
		return method == null ? "C" : method.prefix;
	}

	/**
	 * The name of component {@code c} (from 0) on a plot axis: "cPC1", …; "PC1" for the
	 * α = 0 model of cPCA, which is PCA (its title says "α = 0 (PCA)").
	 */
	public static String axisName(final FittedModel m, final int c) {
		final boolean pca = "cpca".equals(m.method()) && m.alpha() == 0;
		return (pca ? "PC" : prefix(m)) + (c + 1);
	}

	/** The method's display name of a model ("cPCA", "UCA", …), or its raw name. */
	public static String methodName(final FittedModel m) {
		final Method method = Method.of(m);
		return method == null ? m.method() : method.displayName;
	}

	/**
	 * The model's setting in words: "α = 2.5" when it has α, else its scalar parameters
	 * ("β = 0.5") and arrays ("λ = 0.3, 0"); empty when it has none.
	 */
	public static String settingText(final FittedModel m) {
		if (m.parameters().get("contrast_eigengap") != null && m.parameters().get(
			"gamma") instanceof Double) return "α = " + alphaText(m.alpha()) + ", γ = " +
				alphaText((Double) m.parameters().get("gamma"));
		if (!Double.isNaN(m.alpha())) return "α = " + alphaText(m.alpha());
		final StringBuilder sb = new StringBuilder();
		m.parameters().forEach((key, v) -> {
			if (!SHOWN.containsKey(key)) return;
			sb.append(sb.length() == 0 ? "" : ", ").append(SHOWN.get(key)).append(" = ");
			if (v instanceof double[]) {
				final double[] a = (double[]) v;
				for (int i = 0; i < a.length; i++)
					sb.append(i == 0 ? "" : ", ").append(alphaText(a[i]));
			}
			else sb.append(alphaText((Double) v));
		});
		return sb.toString();
	}

	/** Parameters shown in titles, with their symbols. */
	private static final java.util.Map<String, String> SHOWN = java.util.Map.of("beta", "β",
		"lambda", "λ", "k_b", "k_b", "gamma", "γ");

	/**
	 * A short key naming the model among several of one run, for file names:
	 * "alpha_2.5", "beta_0.5", or the method's name.
	 */
	public static String settingKey(final FittedModel m) {
		// automatic (γ, α) of kernel cPCA: the same α may come with several γ
		if (m.parameters().get("contrast_eigengap") != null && m.parameters().get(
			"gamma") instanceof Double) return "alpha_" + alphaText(m.alpha()) + "_gamma_" +
				alphaText((Double) m.parameters().get("gamma"));
		if (!Double.isNaN(m.alpha())) return "alpha_" + alphaText(m.alpha());
		final Object beta = m.parameters().get("beta");
		if (beta instanceof Double) return "beta_" + alphaText((Double) beta);
		return m.method();
	}

	/** "PCA", "α = 0 (PCA)", "cPCA α = 2.5", "cPCA* β = 0.5", "UCA λ = 0.3, 0". */
	public static String title(final FittedModel m) {
		if ("pca".equals(m.method())) return "PCA";
		if ("cpca".equals(m.method()) && m.alpha() == 0) return "α = 0 (PCA)";
		final String setting = settingText(m);
		return methodName(m) + (setting.isEmpty() ? "" : " " + setting);
	}

	/**
	 * A label for one component: "cPC1 α=2.5 λ=0.123" (the setting without spaces); "PC1"
	 * for the α = 0 model, as on the plots' axes ({@link #axisName}).
	 */
	public static String componentLabel(final FittedModel m, final int c) {
		final String setting = settingText(m).replace(" = ", "=").replace("λ=", "lambda=")
			.replace(", ", ",");
		return axisName(m, c) + gcpcaEnd(m, c) + (setting.isEmpty() ? "" : " " +
			setting) + " λ=" + String.format(Locale.ROOT, "%.4g", m.eigenvalues()[c]);
	}

	/**
	 * gcPCA's components name their end — " (target)" for the first half (target-enriched,
	 * value &gt; 0 for v3/v4), " (background)" for the second — and a significant one
	 * (shuffle test) is starred; other methods: empty.
	 */
	static String gcpcaEnd(final FittedModel m, final int c) {
		if (!"gcpca".equals(m.method())) return "";
		final Object sig = m.parameters().get("significant");
		final boolean star = sig instanceof double[] && c < ((double[]) sig).length &&
			((double[]) sig)[c] > 0;
		return (c < m.numComponents() / 2 ? " (target)" : " (background)") + (star ? "*"
			: "");
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
	 * stack's lookup table and display range, its slice label written underneath, and a
	 * colour bar of that table and range on the right ({@link Montage}).
	 */
	public static ImagePlus eigenImageMontage(final ImagePlus stack, final int columns) {
		return Montage.render(stack, columns, 1);
	}

	/**
	 * One scatter plot per model of the target scores on the first two components
	 * (component 1 against sample number when k = 1), coloured by class, drawing every
	 * {@code stride}-th sample; several models are combined two panels per row.
	 *
	 * @param classes one class per target sample, or {@code null}
	 */
	public static ImagePlus scatterPlot(final List<? extends FittedModel> models,
		final List<String> classes, final String targetName, final int stride)
	{
		final List<ImagePlus> panels = scatterPanels(models, classes, targetName, stride);
		return panels.size() == 1 ? panels.get(0) : Panels.montage(panels, 2);
	}

	/**
	 * The scatter plot of one model as a live view redrawn many times a second (the α
	 * explorer): small markers, every {@code stride}-th sample.
	 */
	public static ImagePlus liveScatterPlot(final FittedModel model,
		final List<String> classes, final String subtitle, final int stride)
	{
		return scatterPanels(List.of(model), classes, subtitle, stride,
			ScatterPlot.Markers.SMALL).get(0);
	}

	/** The panels of {@link #scatterPlot}, one per model. */
	public static List<ImagePlus> scatterPanels(final List<? extends FittedModel> models,
		final List<String> classes, final String targetName, final int stride)
	{
		return scatterPanels(models, classes, targetName, stride, ScatterPlot.Markers.NORMAL);
	}

	/**
	 * The panels of {@link #scatterPlot} as pictures for files: the same pixels, drawn many
	 * times faster ({@link ScatterPlot#image}), without an ImageJ plot behind them.
	 */
	public static List<ImagePlus> scatterImages(final List<? extends FittedModel> models,
		final List<String> classes, final String targetName)
	{
		return scatterPanels(models, classes, targetName, 1, null);
	}

	/** {@code markers} null: pictures for files ({@link ScatterPlot#image}). */
	private static List<ImagePlus> scatterPanels(final List<? extends FittedModel> models,
		final List<String> classes, final String targetName, final int stride,
		final ScatterPlot.Markers markers)
	{
		final List<ImagePlus> panels = new ArrayList<>();
		for (final FittedModel m : models) {
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
			final String title = title(m) + " (" + targetName + ")", xLabel = axisName(m, 0),
				yLabel = s[0].length > 1 ? axisName(m, 1) : "sample";
			panels.add(markers == null ? ScatterPlot.image(title, xLabel, yLabel, x, y, shown)
				: ScatterPlot.render(title, xLabel, yLabel, x, y, shown, markers));
		}
		return panels;
	}
}
