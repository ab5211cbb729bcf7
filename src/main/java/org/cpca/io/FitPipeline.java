package org.cpca.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.online.OnlineFamily;
import org.cpca.core.online.OnlineRun;
import org.cpca.core.online.OnlineOptions;
import org.cpca.core.result.Method;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.cpca.core.result.Solution;
import org.cpca.render.FigureWarmUp;

/**
 * Files in, results folder out: reads a {@link FitRequest}'s inputs (images, folders of
 * images, CSV tables), runs its method, and writes the results folder ({@link Results}).
 * The one path every front end takes to a results folder — {@code cpca fit} and Fiji's
 * Batch… alike. Online cPCA* streams its inputs from disk instead of reading them.
 */
public final class FitPipeline {

	private FitPipeline() {}

	/**
	 * Runs the request.
	 *
	 * @return the report of what was written (the folder, the files, the main numbers)
	 * @throws IllegalArgumentException naming a problem with the inputs or settings
	 * @throws CancellationException if {@code progress} says so
	 */
	public static String run(final FitRequest r, final Progress progress)
		throws IOException
	{
		final Method m = r.settings.method();
		if (r.missing == TableInput.Missing.MODEL && m != Method.PCPCA)
			throw new IllegalArgumentException("--missing model keeps empty cells and NaN " +
				"pixels for the method that models them (--method pcpca); for " + m
					.displayName + " use --missing drop, mean or zero");
		// the output folder is checked, locked and made before any input is read
		try (OutputFolder out = OutputFolder.open(r.out, r.inputs(), r.overwrite, r.names)) {
			final String report = r.settings.method() == Method.ONLINE ? online(r, out,
				progress) : offline(r, out, progress);
			progress.stage("done", 1);
			final StringBuilder sb = new StringBuilder();
			for (final String note : out.notes())
				sb.append("note: ").append(note).append('\n');
			return sb.append(report).toString();
		}
	}

	private static String offline(final FitRequest r, final OutputFolder out,
		final Progress progress) throws IOException
	{
		// the figures' one-time costs (fonts, plot classes) paid while reading and fitting
		if (r.plots) FigureWarmUp.start();
		// the memory plan first: the inputs are opened, not read, to learn their sizes
		final StreamedFit.Outcome plan = StreamedFit.runIfPlanned(r, out, progress);
		if (plan.report != null) return plan.report;
		final long t0 = System.nanoTime();
		progress.stage("reading " + r.target, 0);
		final LoadedData t = LoadedData.load("target", r.target, targetReading(r));
		if (plan.plan != null) t.facts.put("plan", plan.plan);
		final List<LoadedData> bs = new ArrayList<>();
		for (int j = 0; j < r.backgrounds.size(); j++) {
			progress.stage("reading " + r.backgrounds.get(j), 0);
			bs.add(checkKind(t, LoadedData.load(backgroundName(r, j), r.backgrounds.get(j),
				backgroundReading(r, j, t))));
		}
		Dataset targetData = t.dataset;
		if (r.labels != null) targetData = targetData.withLabels(LoadedData.readLabels(
			r.labels, targetData.samples()));
		final List<Dataset> backgroundData = new ArrayList<>();
		bs.forEach(b -> backgroundData.add(b.dataset));
		final long t1 = System.nanoTime();
		checkSpace(r, out, t);
		final List<float[][]> backgroundValues = new ArrayList<>();
		bs.forEach(b -> backgroundValues.add(b.withMissing));
		final Solution solution = r.missing == TableInput.Missing.MODEL
			? MethodRunner.runMissing(r.settings, targetData, t.withMissing, backgroundValues,
				progress)
			: MethodRunner.run(r.settings, targetData, backgroundData, progress);
		final long t2 = System.nanoTime();
		final Map<String, Double> timings = new LinkedHashMap<>();
		timings.put("read", (t1 - t0) / 1e9);
		timings.put("fit", (t2 - t1) / 1e9); // preparing the space and solving
		final Results results = new Results(solution, t, bs, targetData, timings);
		progress.stage("writing results to " + r.out, 0);
		results.allFigureFormats(r.allFigureFormats).classTitle(r.labelColumn).write(out,
			r.plots);
		return results.report(r.out, r.plots);
	}

	/** How the target is read: the shared reading, its label column and row filters. */
	static LoadedData.Reading targetReading(final FitRequest r) {
		final LoadedData.Reading how = reading(r);
		how.labelColumn = r.labelColumn;
		how.where = r.targetWhere;
		return how;
	}

	/** A disk too full for the results is found before the fit, not after it. */
	static void checkSpace(final FitRequest r, final OutputFolder out,
		final LoadedData t) throws IOException
	{
		out.checkSpace(ResultsEstimate.bytes(t.samples(), t.features(), r.settings
			.components(), r.settings.alpha().isAuto(), t.isImage(), r.plots,
			r.allFigureFormats));
	}

	/** Online cPCA*: the inputs are streamed (CSV row by row, TIFF slice by slice). */
	private static String online(final FitRequest r, final OutputFolder out,
		final Progress progress)
		throws IOException
	{
		final long t0 = System.nanoTime();
		final Settings s = r.settings;
		if (r.backgrounds.size() != 1) throw new IllegalArgumentException("online cPCA* " +
			"needs exactly one background (got " + r.backgrounds.size() + ")");
		if (MethodRunner.sameSource(r.target, r.targetWhere, r.backgrounds.get(0),
			r.backgroundWhere.get(0))) throw MethodRunner.sameAsTarget("background", "target");
		final OnlineOptions o = s.onlineOptions();
		final LoadedData.Reading how = targetReading(r);
		LoadedData t = null, b = null;
		try {
			progress.stage("opening " + r.target, 0);
			t = LoadedData.stream("target", r.target, how);
			progress.stage("opening " + r.backgrounds.get(0), 0);
			b = checkKind(t, LoadedData.stream("background", r.backgrounds.get(0),
				backgroundReading(r, 0, t)));
			final List<String> labels = r.labels != null ? LoadedData.readLabels(r.labels, t
				.samples()) : t.labels();
			checkSpace(r, out, t);
			final long t1 = System.nanoTime();
			final OnlineRun run = OnlineRun.run(t.source, b.source, o, s.options(
				OnlineFamily.Options.class).reference(), progress);
			final Solution solution = run.result.solution(o, run.offline);
			final Map<String, Double> timings = new LinkedHashMap<>();
			timings.put("open", (t1 - t0) / 1e9);
			timings.put("offline_reference", run.referenceSeconds);
			timings.put("fit", run.onlineSeconds);
			final Results results = new Results(solution, t, List.of(b), labels, timings);
			progress.stage("writing results to " + r.out, 0);
			results.allFigureFormats(r.allFigureFormats).classTitle(r.labelColumn).write(out,
				r.plots);
			return results.report(r.out, r.plots);
		}
		finally {
			try {
				if (t != null) t.source.close();
			}
			finally {
				if (b != null) b.source.close();
			}
		}
	}

	private static LoadedData.Reading reading(final FitRequest r) {
		final LoadedData.Reading how = new LoadedData.Reading();
		how.mask = r.mask;
		how.bin = r.bin;
		how.axes = r.axes;
		how.missing = r.missing;
		return how;
	}

	/** How background j is read: like the target, and checked against it. */
	static LoadedData.Reading backgroundReading(final FitRequest r, final int j,
		final LoadedData t)
	{
		final LoadedData.Reading bh = reading(r);
		bh.where = r.backgroundWhere.get(j);
		bh.layout = t.layout;
		bh.featureNames = t.featureNames;
		bh.compatibleWith = t.image;
		return bh;
	}

	static String backgroundName(final FitRequest r, final int j) {
		return r.backgrounds.size() == 1 ? "background" : "background " + (j + 1);
	}

	static LoadedData checkKind(final LoadedData t, final LoadedData b) {
		if (t.isImage() != b.isImage()) throw new IllegalArgumentException("the target is " +
			(t.isImage() ? "an image" : "a table") + " but the background is " + (b.isImage()
				? "an image" : "a table") + ": give both as images or both as tables");
		return b;
	}
}
