package org.cpca.analysis;

import ij.IJ;

import org.cpca.core.Progress;

/**
 * Bridges the core's progress to ImageJ: the stage goes to the status bar, the fraction
 * to the progress bar, and Esc ({@link IJ#escapePressed()}) or an interruption of the
 * computing thread (SciJava's cancel) cancels the computation.
 */
public final class IjProgress implements Progress {

	private String lastStage = "";

	/** Resets the Esc flag, so that an earlier Esc does not cancel this run. */
	public IjProgress() {
		IJ.resetEscape();
	}

	@Override
	public void stage(final String stage, final double fraction) {
		if (!stage.equals(lastStage)) {
			IJ.showStatus("Contrastive PCA: " + stage + " (Esc cancels)");
			lastStage = stage;
		}
		IJ.showProgress(Math.max(0, Math.min(1, fraction)));
	}

	@Override
	public boolean cancelled() {
		return IJ.escapePressed() || Thread.currentThread().isInterrupted();
	}

	/** Clears the progress bar and the status line. */
	public void done() {
		IJ.showProgress(1.0);
		IJ.showStatus("");
	}
}
