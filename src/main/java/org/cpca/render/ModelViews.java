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
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Collections;
import java.util.Map;
import java.util.function.Supplier;

/**
 * How fitted models are shown, the same in Fiji, in macros and on the command line:
 * names ("cPC1", "α = 0 (PCA)", "cPCA* β = 0.5"), eigen-image stacks and scatter plots.
 */
public final class ModelViews {

	private ModelViews() {}

	/**
	 * α as text for tables and messages: "0", "2.5", "inf", or "" for methods without α (6
	 * significant digits; files that must match {@code model.json} hold the exact value).
	 */
	public static String alphaText(final double alpha) {
		return FittedModel.alphaText(alpha);
	}

	/**
	 * α (or β, γ, λ) as shown on figures and in file names: 3 significant digits ("5.54",
	 * "119", "0.00123"), exponent form outside [10⁻³, 10⁵) ("1.23e6"), "inf", or "" for
	 * none.
	 */
	public static String alphaLabel(final double alpha) {
		if (Double.isNaN(alpha)) return "";
		if (Double.isInfinite(alpha)) return alpha > 0 ? "inf" : "-inf";
		return number(alpha, exponentForm(alpha));
	}

	/** Whether {@link #alphaLabel} writes {@code v} with an exponent. */
	private static boolean exponentForm(final double v) {
		final double a = Math.abs(v);
		return a != 0 && Double.isFinite(a) && (a < 1e-3 || a >= 1e5);
	}

	/**
	 * {@code v} to 3 significant digits, plain ("8060", "0.125") or with an exponent
	 * ("4.30e5", "8.06e3": then always with three digits, so that a column of them lines
	 * up).
	 */
	static String number(final double v, final boolean exponent) {
		if (v == 0) return "0";
		if (!Double.isFinite(v)) return Double.isNaN(v) ? "NaN" : v > 0 ? "inf" : "-inf";
		final BigDecimal b = new BigDecimal(v).round(
			new MathContext(3));
		if (!exponent) return b.stripTrailingZeros().toPlainString();
		final String e = String.format(Locale.ROOT, "%.2e", b.doubleValue());
		final int at = e.indexOf('e');
		return e.substring(0, at) + "e" + Integer.parseInt(e.substring(at + 1));
	}

	/**
	 * Numbers that are shown together (the eigenvalues on one figure) in one form, 3
	 * significant digits each: plain when every one is plain in {@link #alphaLabel}, else
	 * all with an exponent (not "4.30e5" beside "8055").
	 */
	public static String[] numbers(final double... values) {
		boolean exponent = false;
		for (final double v : values)
			exponent |= exponentForm(v);
		final String[] out = new String[values.length];
		for (int i = 0; i < values.length; i++)
			out[i] = number(values[i], exponent);
		return out;
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
	 * The model's setting in words, to 3 significant digits: "α = 2.5" when it has α, else its scalar parameters
	 * ("β = 0.5") and arrays ("λ = 0.3, 0"); empty when it has none.
	 */
	public static String settingText(final FittedModel m) {
		if (m.parameters().get("contrast_eigengap") != null && m.parameters().get(
			"gamma") instanceof Double) return "α = " + alphaLabel(m.alpha()) + ", γ = " +
				alphaLabel((Double) m.parameters().get("gamma"));
		if (!Double.isNaN(m.alpha())) return "α = " + alphaLabel(m.alpha());
		final StringBuilder sb = new StringBuilder();
		m.parameters().forEach((key, v) -> {
			if (!SHOWN.containsKey(key)) return;
			sb.append(sb.length() == 0 ? "" : ", ").append(SHOWN.get(key)).append(" = ");
			if (v instanceof double[]) {
				final double[] a = (double[]) v;
				for (int i = 0; i < a.length; i++)
					sb.append(i == 0 ? "" : ", ").append(alphaLabel(a[i]));
			}
			else sb.append(alphaLabel((Double) v));
		});
		return sb.toString();
	}

	/** Parameters shown in titles, with their symbols. */
	private static final Map<String, String> SHOWN = Map.of("beta", "β",
		"lambda", "λ", "k_b", "k_b", "gamma", "γ");

	/**
	 * A short key naming the model among the {@code count} of one run, for file names:
	 * its setting to 3 significant digits after its index in the run's results (from 0,
	 * as in summary.json's "results" and the "model" column of scores.csv), so that names
	 * sort in that order and two α that round alike stay apart: "alpha_2_5.54",
	 * "beta_1_0.5"; with one model no index ("alpha_2.5"); the method's name for a model
	 * without α or β.
	 */
	public static String settingKey(final FittedModel m, final int index, final int count) {
		final String at = count > 1 ? index + "_" : "";
		// automatic (γ, α) of kernel cPCA: the same α may come with several γ
		if (m.parameters().get("contrast_eigengap") != null && m.parameters().get(
			"gamma") instanceof Double) return "alpha_" + at + alphaLabel(m.alpha()) +
				"_gamma_" + alphaLabel((Double) m.parameters().get("gamma"));
		if (!Double.isNaN(m.alpha())) return "alpha_" + at + alphaLabel(m.alpha());
		final Object beta = m.parameters().get("beta");
		if (beta instanceof Double) return "beta_" + at + alphaLabel((Double) beta);
		return count > 1 ? m.method() + "_" + index : m.method();
	}

	/** "PCA", "α = 0 (PCA)", "cPCA α = 2.5", "cPCA* β = 0.5", "UCA λ = 0.3, 0". */
	public static String title(final FittedModel m) {
		if ("pca".equals(m.method())) return "PCA";
		if ("cpca".equals(m.method()) && m.alpha() == 0) return "α = 0 (PCA)";
		final String setting = settingText(m);
		return methodName(m) + (setting.isEmpty() ? "" : " " + setting);
	}

	/**
	 * A label for one component: "cPC1 α=2.5 λ=0.123" (the setting without spaces, 3
	 * significant digits); "PC1" for the α = 0 model, as on the plots' axes
	 * ({@link #axisName}).
	 */
	public static String componentLabel(final FittedModel m, final int c) {
		return componentLabel(m, c, numbers(m.eigenvalues()[c])[0]);
	}

	/** {@link #componentLabel(FittedModel, int)} with the eigenvalue already as text. */
	private static String componentLabel(final FittedModel m, final int c,
		final String eigenvalue)
	{
		final String setting = settingText(m).replace(" = ", "=").replace("λ=", "lambda=")
			.replace(", ", ",");
		return axisName(m, c) + gcpcaEnd(m, c) + (setting.isEmpty() ? "" : " " +
			setting) + " λ=" + eigenvalue;
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
	 * with component, α and eigenvalue (every eigenvalue in one number form,
	 * {@link #numbers}), blue–white–red and centred on zero.
	 */
	public static ImagePlus eigenImages(final String title, final List<CpcaModel> models,
		final FeatureLayout layout)
	{
		return eigenImages(title, models, layout, null);
	}

	/** The level at which a permutation test's component is marked ({@link #marked}). */
	public static final double MARK_LEVEL = 0.05;
	/** What the mark means, for a title or legend. */
	public static final String MARK_NOTE = "* p ≤ 0.05, permutation test";

	/** The label with "*" appended when p ≤ {@link #MARK_LEVEL}. */
	public static String marked(final String label, final double p) {
		return p <= MARK_LEVEL ? label + "*" : label;
	}

	/**
	 * {@link #eigenImages(String, List, FeatureLayout)} with each model's permutation-test
	 * p-values ({@code null}, or null entries, for none): significant components are
	 * starred and the title says what the star means.
	 */
	public static ImagePlus eigenImages(final String title, final List<CpcaModel> models,
		final FeatureLayout layout, final List<double[]> pValues)
	{
		final List<double[]> all = new ArrayList<>();
		final List<Double> eigenvalues = new ArrayList<>();
		for (final CpcaModel m : models)
			for (final double v : m.eigenvalues())
				eigenvalues.add(v);
		final String[] text = numbers(eigenvalues.stream().mapToDouble(Double::doubleValue)
			.toArray());
		final List<String> labels = new ArrayList<>();
		int at = 0;
		for (final CpcaModel m : models) {
			final double[][] comps = m.components();
			for (int c = 0; c < comps.length; c++) {
				all.add(comps[c]);
				final double[] p = pValues == null ? null : pValues.get(models.indexOf(m));
				final String label = componentLabel(m, c, text[at + c]);
				labels.add(p == null ? label : marked(label, p[c]));
			}
			at += m.eigenvalues().length;
		}
		final boolean tested = pValues != null && pValues.stream().anyMatch(p -> p != null);
		final ImagePlus stack = ComponentImages.eigenImages(tested ? title + " (" + MARK_NOTE +
			")" : title, all.toArray(
			new double[0][]), layout, labels);
		stack.setProp(Montage.BAR_TITLE, "weight per pixel");
		if (tested) stack.setProp(Montage.NOTE, MARK_NOTE);
		return stack;
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
		return scatterPanels(List.of(model), classes, ScatterPlot.CLASS, List.of(subtitle),
			stride, ScatterPlot.Markers.SMALL).get(0);
	}

	/** The panels of {@link #scatterPlot}, one per model. */
	public static List<ImagePlus> scatterPanels(final List<? extends FittedModel> models,
		final List<String> classes, final String targetName, final int stride)
	{
		return scatterPanels(models, classes, ScatterPlot.CLASS, notes(models.size(),
			targetName), stride, ScatterPlot.Markers.NORMAL);
	}

	/**
	 * The panels of {@link #scatterPlot} for files, as ImageJ plots (for SVG and the
	 * high-resolution PNG): the legend titled {@code classTitle}, each panel's title
	 * ending with its note ("LDA 98.3 % (default)"; null or empty for none).
	 */
	public static List<ImagePlus> scatterPanels(final List<? extends FittedModel> models,
		final List<String> classes, final String classTitle, final List<String> notes)
	{
		return scatterPanels(models, classes, classTitle, notes, 1, ScatterPlot.Markers.NORMAL);
	}

	/**
	 * The panels of {@link #scatterPlot} as pictures for files: the same pixels, drawn many
	 * times faster ({@link ScatterPlot#image}), without an ImageJ plot behind them.
	 */
	public static List<ImagePlus> scatterImages(final List<? extends FittedModel> models,
		final List<String> classes, final String targetName)
	{
		return scatterPanels(models, classes, ScatterPlot.CLASS, notes(models.size(),
			targetName), 1, null);
	}

	/** {@link #scatterImages} with the legend's title and the panels' notes. */
	public static List<ImagePlus> scatterImages(final List<? extends FittedModel> models,
		final List<String> classes, final String classTitle, final List<String> notes)
	{
		return scatterPanels(models, classes, classTitle, notes, 1, null);
	}

	/**
	 * {@link #scatterImages} in two parts ({@link ScatterPlot#picture}): ImageJ's parts of
	 * every panel are drawn now, on this thread; each panel's markers are stamped by its
	 * {@code get()}, on any thread (the results folder's writers stamp them side by side).
	 */
	public static List<Supplier<ImagePlus>> scatterPictures(
		final List<? extends FittedModel> models, final List<String> classes,
		final String classTitle, final List<String> notes)
	{
		return scatterSuppliers(models, classes, classTitle, notes, 1, null);
	}

	/** The same note for every panel: the target's name. */
	private static List<String> notes(final int count, final String targetName) {
		return Collections.nCopies(count, targetName);
	}

	/**
	 * A panel's title: the model's ({@link #title}) and its note, "cPCA α = 5.54 · LDA
	 * 98.3 % (default)".
	 */
	public static String panelTitle(final FittedModel m, final String note) {
		return title(m) + (note == null || note.isEmpty() ? "" : " · " + note);
	}

	/** {@code markers} null: pictures for files ({@link ScatterPlot#image}). */
	private static List<ImagePlus> scatterPanels(final List<? extends FittedModel> models,
		final List<String> classes, final String classTitle, final List<String> notes,
		final int stride, final ScatterPlot.Markers markers)
	{
		final List<ImagePlus> panels = new ArrayList<>();
		for (final Supplier<ImagePlus> p : scatterSuppliers(models, classes, classTitle, notes,
			stride, markers))
			panels.add(p.get());
		return panels;
	}

	/**
	 * The panels of {@link #scatterPanels}; ImageJ's plots drawn now, the markers of
	 * pictures for files ({@code markers} null) stamped by {@code get()}.
	 */
	private static List<Supplier<ImagePlus>> scatterSuppliers(
		final List<? extends FittedModel> models, final List<String> classes,
		final String classTitle, final List<String> notes, final int stride,
		final ScatterPlot.Markers markers)
	{
		final List<Supplier<ImagePlus>> panels = new ArrayList<>();
		for (int p = 0; p < models.size(); p++) {
			final FittedModel m = models.get(p);
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
			final String title = panelTitle(m, notes.get(p)), xLabel = axisName(m, 0),
				yLabel = s[0].length > 1 ? axisName(m, 1) : "sample";
			if (markers == null) panels.add(ScatterPlot.picture(title, xLabel, yLabel, x, y,
				shown, classTitle));
			else {
				final ImagePlus plot = ScatterPlot.render(title, xLabel, yLabel, x, y, shown,
					classTitle, markers);
				panels.add(() -> plot);
			}
		}
		return panels;
	}
}
