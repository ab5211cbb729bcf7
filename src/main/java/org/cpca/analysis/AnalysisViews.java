package org.cpca.analysis;

import org.cpca.image.PixelSamples;

import ij.ImagePlus;
import ij.gui.Plot;
import ij.gui.Roi;
import ij.measure.ResultsTable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.star.CpcaStar;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.result.Method;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.Progress;
import org.cpca.core.result.Solution;
import org.cpca.image.DivergingLut;
import org.cpca.image.FeatureLayout;
import org.cpca.image.StackSamples;
import org.cpca.render.ExtremeSamples;
import org.cpca.render.Palette;
import org.cpca.render.ModelViews;
import org.cpca.render.ScatterPlot;
import org.cpca.render.ScreePlot;
import org.cpca.render.Spectrum;
import org.cpca.render.VariancePairsPlot;
import java.awt.Color;
import org.cpca.core.Curve;
import org.cpca.core.Memory;
import org.cpca.render.CurvePlot;
import org.cpca.render.PlotStyle;

/**
 * The ImageJ outputs of an {@link Analysis}: eigen-images or score images, scatter,
 * scree, variance-pairs and curve plots, scores and components tables. Made on demand;
 * nothing is re-solved: plots use the models and the α sweep the analysis kept.
 */
public final class AnalysisViews {

	/** Most points drawn in a pixels-as-samples scatter plot (a regular subsample). */
	static final int MAX_PLOTTED_PIXELS = 20000;

	private final Analysis a;

	AnalysisViews(final Analysis analysis) {
		a = analysis;
	}

	/**
	 * Slices as samples: the (contrastive) eigen-images of every model, one 32-bit slice
	 * per component and α, labelled with component, α and eigenvalue, with the
	 * blue–white–red table centred on zero.
	 *
	 * @throws IllegalStateException for pixels as samples (see {@link #scoreImages()})
	 */
	public ImagePlus eigenImages() {
		if (a.layout == null) throw new IllegalStateException(
			"eigen-images exist for slices as samples; with pixels as samples see the " +
				"score images");
		if (!a.solution.linear()) throw new IllegalStateException(a.solution.method().displayName +
			" has no eigen-images (its components live in the kernel's feature space): " +
			"see the extreme samples instead");
		int k = 0;
		for (final FittedModel m : a.solution.linearModels())
			k += m.numComponents();
		OutputMemory.require("the eigen-images of " + a.targetTitle() + " (" + k +
			" images of " + a.layout.binnedWidth() + " × " + a.layout.binnedHeight() +
			" pixels)", Memory.floats(k, (long) a.layout.binnedWidth() * a.layout
				.binnedHeight()), OutputMemory.FIXES);
		final ImagePlus imp = ModelViews.eigenImages((a.solution.method() == Method.PCA
			? "Eigen-images of " : "Contrastive eigen-images of ") + a.targetTitle(), a.solution
				.linearModels(), a.layout, pValues());
		if (a.layout.bin() == 1) imp.setCalibration(a.request.target.getCalibration().copy());
		return mark(imp);
	}

	/**
	 * The eigen-images as a figure: the slices of {@code eigenImages} side by side (one
	 * row per model), labelled, with a colour bar of the blue–white–red table and its
	 * range centred on 0 ({@code ModelViews.eigenImageMontage}, the command line's
	 * {@code plots/eigen_images.png}).
	 */
	public ImagePlus eigenImageFigure(final ImagePlus eigenImages) {
		final ImagePlus imp = ModelViews.eigenImageMontage(eigenImages, a.primary()
			.numComponents());
		imp.setTitle("Eigen-image figure of " + a.targetTitle());
		return mark(imp);
	}

	/**
	 * Slices as samples, for methods without eigen-images (kernel cPCA): per component of
	 * the main model, the target slices with the {@value ExtremeSamples#COUNT} highest and
	 * lowest scores ({@link ExtremeSamples}), in the target's units; the title and the
	 * image's info say why there are no eigen-images.
	 */
	public ImagePlus extremeSamples() {
		if (a.layout == null) throw new IllegalStateException("extreme samples are shown " +
			"for slices as samples; with pixels as samples see the score images");
		if (a.targetData == null) throw new IllegalStateException("extreme samples need " +
			"the target in memory; a streamed analysis has eigen-images");
		final ImagePlus imp = ExtremeSamples.stack("Extreme samples of " + a.targetTitle() +
			" (" + a.solution.method().displayName + ": no eigen-images)", a.primary(),
			a.targetData, a.layout, ExtremeSamples.COUNT);
		if (a.layout.bin() == 1) imp.setCalibration(a.request.target.getCalibration().copy());
		imp.setProperty("Info", String.join("\n", a.diagnostics()));
		return mark(imp);
	}

	/**
	 * Pixels as samples: one score image per component and α (the target's pixels
	 * projected on the component), 32-bit with the target's calibration and the
	 * blue–white–red table centred on zero; pixels that are not samples are NaN.
	 *
	 * @throws IllegalStateException for slices as samples
	 */
	public ImagePlus scoreImages() {
		if (a.layout != null) throw new IllegalStateException(
			"score images exist for pixels as samples; with slices as samples see the " +
				"eigen-images and the scores table");
		final ImagePlus t = a.request.target;
		final Dataset pixels = a.request.backgroundFromSelection || a.targetPixels == null
			? a.targetData : PixelSamples.toDataset("target", a.targetSnapshot != null
				? a.targetSnapshot : t, null);
		int total = 0;
		for (final FittedModel m : a.models())
			total += m.numComponents();
		OutputMemory.require("the score images of " + a.targetTitle() + " (" + pixels
			.samples() + " pixels × " + total + " components)", OutputMemory.scoreImages(
				pixels.samples(), total), OutputMemory.FIXES);
		final List<double[][]> perModel = new ArrayList<>();
		final List<String> labels = new ArrayList<>();
		int columns = 0;
		for (final FittedModel m : a.models()) {
			perModel.add(m.transform(pixels));
			for (int c = 0; c < m.numComponents(); c++)
				labels.add(ModelViews.componentLabel(m, c));
			columns += m.numComponents();
		}
		final double[][] all = new double[pixels.samples()][columns];
		int offset = 0;
		for (final double[][] s : perModel) {
			final int k = s.length == 0 ? 0 : s[0].length;
			for (int i = 0; i < s.length; i++)
				System.arraycopy(s[i], 0, all[i], offset, k);
			offset += k;
		}
		final ImagePlus imp = PixelSamples.toStack(a.prefix() + " score images of " +
			a.targetTitle(), all, t.getWidth(), t.getHeight(), null, labels, t
				.getCalibration());
		DivergingLut.apply(imp);
		return mark(imp);
	}

	/**
	 * Pixels as samples: each component of the main model across the planes of the
	 * stack (its loading on plane 1, 2, …).
	 */
	public ImagePlus loadingsPlot() {
		if (!(a.primary() instanceof CpcaModel)) throw new IllegalStateException(a.solution
			.method().displayName + " has no loadings on the planes");
		final CpcaModel m = (CpcaModel) a.primary();
		final double[][] comps = m.components();
		final int d = comps[0].length;
		final double[] x = new double[d];
		for (int j = 0; j < d; j++)
			x[j] = j + 1;
		final Plot plot = new Plot("Components of " + a.targetTitle() + " across planes",
			"plane (channel / slice / frame)", "loading");
		plot.setSize(ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
		// limits fitted to every component, not only the first
		final double[] all = new double[comps.length * d];
		for (int c = 0; c < comps.length; c++)
			System.arraycopy(comps[c], 0, all, c * d, d);
		final double[] yr = PlotStyle.paddedRange(all);
		plot.setLimits(0.5, d + 0.5, yr[0], yr[1]);
		plot.setOptions("xinterval=" + Math.max(1, (d + 9) / 10) + " xdecimals=0");
		final StringBuilder legend = new StringBuilder();
		for (int c = 0; c < comps.length; c++) {
			plot.setLineWidth(1.5f);
			plot.setColor(Palette.color(c), Palette.color(c));
			plot.add("connected circle", x, comps[c]);
			legend.append(c == 0 ? "" : "\n").append(ModelViews.componentLabel(m, c));
		}
		plot.setColor(Color.BLACK);
		plot.setLineWidth(1);
		plot.setLegend(legend.toString(), Plot.AUTO_POSITION);
		return mark(plot.getImagePlus());
	}

	/**
	 * Scatter plot of the target samples on the first two components of the main model,
	 * coloured by class (slice labels that repeat; for pixels as samples, inside / outside
	 * the selection): a real ImageJ plot (its values can be listed, its axes rescaled).
	 * Pixels as samples draw a regular subsample of at most {@value #MAX_PLOTTED_PIXELS}
	 * points. For every α see {@link #scatterPlots()}.
	 */
	public ImagePlus scatterPlot() {
		final List<ImagePlus> all = scatterPlots();
		final int i = a.models().indexOf(a.primary());
		return all.get(Math.max(0, i));
	}

	/**
	 * One scatter plot per model (per α, β, …), each a real ImageJ plot window titled
	 * with its setting, in the order of {@code models()}.
	 */
	public List<ImagePlus> scatterPlots() {
		final int n = a.targetSamples;
		final int stride = a.layout == null ? Math.max(1, (n + MAX_PLOTTED_PIXELS - 1) /
			MAX_PLOTTED_PIXELS) : 1;
		final List<ImagePlus> plots = ModelViews.scatterPanels(a.models(), a.targetLabels,
			a.targetTitle(), stride);
		final boolean several = plots.size() > 1;
		for (int i = 0; i < plots.size(); i++)
			mark(plots.get(i)).setTitle(a.solution.method().displayName + " scatter plot of " + a
				.targetTitle() + (several ? " (" + ModelViews.title(a.models().get(i)) + ")"
					: ""));
		return plots;
	}

	/**
	 * For automatic α: the (target variance, background variance) pairs of the top cPC
	 * along the α sweep, the chosen α values marked (docs/math/cpca.md).
	 */
	public ImagePlus variancePairsPlot() {
		if (a.selection() == null) throw new IllegalStateException(
			"the variance-pairs plot needs automatic α (alpha_mode=auto)");
		final ImagePlus imp = VariancePairsPlot.render("target vs background variance, " +
			a.targetTitle(), a.cpca(), a.selection());
		imp.setTitle("cPCA variance pairs of " + a.targetTitle());
		return mark(imp);
	}

	/**
	 * The curves the method reported (e.g. cPCA*'s separation of the classes against β),
	 * one plot each; empty when there are none.
	 */
	public List<ImagePlus> curvePlots() {
		final List<ImagePlus> out = new ArrayList<>();
		for (final Curve c : a.solution.curves()) {
			final ImagePlus imp = CurvePlot.render(c);
			imp.setTitle(c.title + " of " + a.targetTitle());
			out.add(mark(imp));
		}
		return out;
	}

	/**
	 * The eigenvalues of the main model against component index; for PCA and cPCA at a
	 * finite α the full spectrum behind them ({@link Spectrum}).
	 */
	public ImagePlus screePlot() {
		final ImagePlus imp = ScreePlot.render("eigenvalues, " + ModelViews.title(a.primary()),
			a.primary().eigenvalues(), Spectrum.of(a.primary(), a.cpca()));
		imp.setTitle("Eigenvalues of " + a.targetTitle());
		return mark(imp);
	}

	/** Marks {@code imp} as a result of this analysis's run ({@link ResultWindows}). */
	private ImagePlus mark(final ImagePlus imp) {
		return ResultWindows.mark(imp, a.run);
	}

	/** The scores table's window title: "cPCA scores of " and the target's title. */
	public String scoresTitle() {
		return "cPCA scores of " + a.targetTitle();
	}

	/** The components table's window title: "cPCA components of " and the target's title. */
	public String componentsTitle() {
		return "cPCA components of " + a.targetTitle();
	}

	/**
	 * Scores of the target samples: one row per sample and α, with columns
	 * {@code sample}, {@code label}, {@code alpha}, {@code cPC1} … (for pixels as
	 * samples also {@code x}, {@code y}).
	 */
	public ResultsTable scoresTable() {
		long rows = 0, cells = 0;
		for (final FittedModel m : a.models()) {
			rows += a.targetSamples;
			cells += (long) a.targetSamples * (m.numComponents() + 4);
		}
		OutputMemory.require("the scores table of " + a.targetTitle() + " (" + rows +
			" rows)", Memory.times(cells, OutputMemory.TABLE_CELL),
			OutputMemory.FIXES);
		final ResultsTable rt = new ResultsTable();
		rt.showRowNumbers(false);
		final List<String> labels = a.targetLabels;
		final List<String> names = a.targetNames;
		final int w = a.request.target.getWidth();
		final int[] pixel = a.layout == null ? pixelIndices() : null;
		for (final FittedModel m : a.models()) {
			final double[][] s = m.targetScores();
			for (int i = 0; i < s.length; i++) {
				rt.incrementCounter();
				if (pixel == null) rt.addValue("sample", names == null ? "" + (i + 1) : names
					.get(i));
				else {
					rt.addValue("x", pixel[i] % w);
					rt.addValue("y", pixel[i] / w);
				}
				rt.addValue("label", labels == null ? "" : labels.get(i));
				addSetting(rt, m);
				for (int c = 0; c < s[i].length; c++)
					rt.addValue(a.prefix() + (c + 1), s[i][c]);
			}
		}
		return rt;
	}

	/** The α column, then one column per scalar parameter of the method (e.g. beta). */
	private static void addSetting(final ResultsTable rt, final FittedModel m) {
		rt.addValue("alpha", Analysis.alphaText(m.alpha()));
		m.parameters().forEach((key, v) -> {
			if (v instanceof Double) rt.addValue(key, Analysis.alphaText((Double) v));
		});
	}

	private int[] pixelIndices() {
		final int size = a.request.target.getWidth() * a.request.target.getHeight();
		final boolean[] keep = a.request.backgroundFromSelection ? null : a.targetPixels;
		final int[] out = new int[PixelSamples.count(keep, size)];
		int q = 0;
		for (int i = 0; i < size; i++)
			if (keep == null || keep[i]) out[q++] = i;
		return out;
	}

	/** Each model's permutation-test p-values, or null without the test. */
	private List<double[]> pValues() {
		final List<Object> significance = a.solution().resultFacts().get("significance");
		if (significance == null) return null;
		final List<double[]> out = new ArrayList<>();
		for (final Object entry : significance)
			out.add((double[]) ((Map<?, ?>) entry).get("p_values"));
		return out;
	}

	/**
	 * One row per α and component: {@code alpha}, {@code component}, {@code eigenvalue},
	 * {@code target_variance}, {@code background_variance},
	 * {@code fraction_of_target_variance}; for gcPCA with a shuffle test also
	 * {@code significant} (1 or 0, as in the command line's summary); with the permutation
	 * test ({@code significance}) {@code p_value}, family-wise over the components, and
	 * {@code mark}, "*" for p ≤ 0.05 (as on the figures); with
	 * the bootstrap ({@code bootstrap}) {@code median_angle} and {@code angle_95}, the
	 * median and 95th percentile of the angle to the full-data component, in degrees.
	 */
	public ResultsTable componentsTable() {
		final ResultsTable rt = new ResultsTable();
		rt.showRowNumbers(false);
		final List<Object> significance = a.solution().resultFacts().get("significance");
		final List<Object> bootstrap = a.solution().resultFacts().get("bootstrap");
		for (int r = 0; r < a.models().size(); r++) {
			final FittedModel m = a.models().get(r);
			final double[] ev = m.eigenvalues(), tv = m.targetVariance(), bv = m
				.backgroundVariance(), f = m.fractionOfTargetVariance();
			final double[] p = significance == null ? null : pValues().get(r);
			final Map<?, ?> stability = bootstrap == null ? null : (Map<?, ?>) bootstrap.get(r);
			for (int c = 0; c < ev.length; c++) {
				rt.incrementCounter();
				addSetting(rt, m);
				rt.addValue("component", a.prefix() + (c + 1));
				rt.addValue("eigenvalue", ev[c]);
				rt.addValue("target_variance", tv[c]);
				rt.addValue("background_variance", bv[c]);
				rt.addValue("fraction_of_target_variance", f[c]);
				final Object sig = m.parameters().get("significant");
				if (sig instanceof double[]) rt.addValue("significant", ((double[]) sig)[c]);
				if (p != null) {
					rt.addValue("p_value", p[c]);
					rt.addValue("mark", ModelViews.marked("", p[c])); // "*": p ≤ 0.05
				}
				if (stability != null) {
					rt.addValue("median_angle", ((double[]) stability.get(
						"median_angle_degrees"))[c]);
					rt.addValue("angle_95", ((double[]) stability.get("angle_95_degrees"))[c]);
				}
			}
		}
		return rt;
	}
}
