package org.cpca.io;

/**
 * About how many bytes a results folder takes, known before the fit (from the inputs'
 * sizes), so that a disk too full for the results is found before the work rather than
 * after it ({@link OutputFolder#checkSpace}). Generous on purpose: the text of a number
 * is taken as 25 bytes (a model file, scores.csv), a figure as 60 KB (three times that
 * with every figure format), and an automatic choice as five models; the bundled images'
 * automatic-α results (685 KB) are estimated at about 1.2 MB.
 */
final class ResultsEstimate {

	private static final long NUMBER = 25, FIGURE = 60 << 10, FIXED = 16 << 10;
	private static final int AUTO_MODELS = 5, FIXED_FIGURES = 4;

	private ResultsEstimate() {}

	/**
	 * @param samples target samples (rows of scores.csv per model)
	 * @param features features (numbers per component in a model file)
	 * @param k components
	 * @param auto whether a parameter is chosen automatically (one model per candidate)
	 * @param image whether the inputs are images (components.tif, extremes.tif)
	 */
	static long bytes(final long samples, final long features, final int k,
		final boolean auto, final boolean image, final boolean plots,
		final boolean allFigureFormats)
	{
		final long models = auto ? AUTO_MODELS : 1;
		final long modelFiles = (models + (models > 1 ? 1 : 0)) * (k + 2L) * features * NUMBER;
		final long scores = models * samples * (k + 3L) * NUMBER;
		final long tiffs = image ? (2L * k + 1) * features * 4 : 0;
		final long figures = plots ? (models + FIXED_FIGURES) * FIGURE * (allFigureFormats ? 3
			: 1) : 0;
		return modelFiles + scores + tiffs + figures + FIXED;
	}
}
