package org.cpca.command;

import org.cpca.core.run.Settings;

import org.cpca.analysis.AlphaExplorer;
import org.cpca.analysis.Analysis;
import org.cpca.analysis.AnalysisRequest;
import org.cpca.analysis.Samples;
import org.cpca.analysis.IjProgress;

import java.awt.AWTEvent;
import java.awt.Choice;
import java.awt.Label;
import java.awt.Scrollbar;

import ij.ImagePlus;
import ij.gui.DialogListener;
import ij.gui.GenericDialog;
import ij.gui.NonBlockingGenericDialog;

import org.cpca.core.model.CpcaModel;
import org.cpca.render.ModelViews;
import org.scijava.command.Command;
import org.scijava.command.CommandService;
import org.scijava.command.ContextCommand;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;
import ij.plugin.Zoom;
import java.awt.TextField;
import java.util.Locale;

/**
 * Plugins &gt; Contrastive PCA &gt; Explore Alpha... (ASCII, as macros are read as Latin-1): fits once (with the automatic α
 * selection), then a slider over log α (plus α = 0 and α = ∞) re-solves on that fit and
 * redraws the scatter plot and the first eigen-images as it moves. The automatically
 * chosen α values can be jumped to; OK hands the current α to Contrastive PCA... for the
 * full set of outputs. The windows and the dialog need a display.
 */
@Plugin(type = Command.class, menuPath = "Plugins>Contrastive PCA>Explore Alpha...",
	headless = false,
	description = "Move α and watch the scatter plot and eigen-images change")
public class ExploreAlphaCommand extends ContextCommand {

	@Parameter(label = "Target", persist = false,
		description = "The stack to understand (slices as samples).")
	private ImagePlus target;

	@Parameter(label = "Background", persist = false,
		description = "The stack whose variation is to be ignored.")
	private ImagePlus background;

	@Parameter(label = "Components (k)", min = "1",
		description = "Number of contrastive components (the scatter shows the first two).")
	private int components = 2;

	@Parameter(label = "Standardize",
		description = "Divide each feature by its own dataset's standard deviation.")
	private boolean standardize;

	@Parameter(label = "Bin", min = "1",
		description = "Average bin × bin pixel blocks into one feature.")
	private int bin = 1;

	@Parameter(label = "Seed", description = "Seed of the automatic α selection.")
	private long seed;

	@Parameter
	private CommandService commands;

	@Override
	public void run() {
		final IjProgress progress = new IjProgress();
		final Analysis analysis;
		try {
			analysis = Analysis.run(new AnalysisRequest().target(target).background(
				background).settings(Settings.builder().set("components", components).set(
					"standardize", standardize).set("seed", seed).build()).bin(bin), progress);
			progress.done();
		}
		catch (final RuntimeException e) {
			Feedback.fail(this, e);
			return;
		}
		catch (final OutOfMemoryError e) { // an estimate missed it: one line, no trace
			Feedback.fail(this, new IllegalArgumentException(Feedback.outOfMemory()));
			return;
		}
		final AlphaExplorer explorer = new AlphaExplorer(analysis);
		final double[] chosen = explorer.chosenAlphas();
		final int start = AlphaExplorer.positionOf(chosen.length > 1 ? chosen[1] : 1);
		final CpcaModel first = explorer.model(start);
		final ImagePlus scatter = explorer.scatter(first);
		scatter.setTitle("Explore Alpha: scatter plot");
		scatter.show();
		final ImagePlus eigen = explorer.eigenImages(first);
		if (eigen != null) {
			eigen.setTitle("Explore Alpha: eigen-images");
			eigen.show();
			// small images (e.g. 32 × 32) are shown enlarged, up to about 256 pixels
			final int mag = Math.max(1, Integer.highestOneBit(Math.max(1, 256 / Math.max(
				eigen.getWidth(), eigen.getHeight()))));
			if (mag > 1) Zoom.set(eigen, mag);
		}
		final int[] position = { start };
		final NonBlockingGenericDialog gd = new NonBlockingGenericDialog("Explore α");
		gd.addMessage("Slider: α = 0 (PCA) at the left, α = ∞ at the right, log-spaced " +
			"between 10^" + (int) AlphaExplorer.MIN_LOG + " and 10^" +
			(int) AlphaExplorer.MAX_LOG + ".");
		gd.addSlider("position", 0, AlphaExplorer.lastPosition(), start);
		final String[] marks = new String[chosen.length + 1];
		marks[0] = "(move the slider)";
		for (int i = 0; i < chosen.length; i++)
			marks[i + 1] = "α = " + ModelViews.alphaLabel(chosen[i]);
		gd.addChoice("Jump to automatic α", marks, marks[0]);
		gd.addMessage(label(first), null);
		final Label status = (Label) gd.getMessage();
		final DialogListener listener = (final GenericDialog dialog, final AWTEvent e) -> {
			int p = (int) dialog.getNextNumber();
			final int jump = dialog.getNextChoiceIndex();
			if (e != null && e.getSource() instanceof Choice && jump > 0) {
				p = AlphaExplorer.positionOf(chosen[jump - 1]);
				final Scrollbar bar = (Scrollbar) dialog.getSliders().get(0);
				bar.setValue(p);
				((TextField) dialog.getNumericFields().get(0)).setText("" + p);
			}
			if (p == position[0]) return true;
			position[0] = p;
			try {
				final CpcaModel m = explorer.model(p);
				final ImagePlus s = explorer.scatter(m);
				scatter.setProcessor(s.getProcessor());
				if (eigen != null) eigen.setStack(explorer.eigenImages(m).getStack());
				if (status != null) status.setText(label(m));
			}
			catch (final IllegalArgumentException ex) {
				if (status != null) status.setText(ex.getMessage());
			}
			return true;
		};
		gd.addDialogListener(listener);
		gd.setOKLabel("Run Contrastive PCA at this α");
		gd.showDialog();
		if (gd.wasCanceled()) return;
		final double alpha = AlphaExplorer.alphaAt(position[0]);
		commands.run(ContrastivePcaCommand.class, true, "target", target,
			"background_source", "image", "background", background, "samples", "slices",
			"method", "cpca", "alpha_mode", alpha == Double.POSITIVE_INFINITY ? "inf"
				: "fixed", "alpha", Double.isInfinite(alpha) ? 0 : alpha, "components",
			components, "standardize", standardize, "bin", bin, "seed", seed);
	}

	/** "cPCA α = 2: cPC1 λ = 1.509e+04, cPC2 λ = 8126": each eigenvalue named. */
	static String label(final CpcaModel m) {
		final StringBuilder sb = new StringBuilder(ModelViews.title(m)).append(':');
		final double[] ev = m.eigenvalues();
		for (int c = 0; c < ev.length; c++)
			sb.append(c == 0 ? " " : ", ").append(ModelViews.axisName(m, c)).append(" λ = ")
				.append(String.format(Locale.ROOT, "%.4g", ev[c]));
		return sb.toString();
	}
}
