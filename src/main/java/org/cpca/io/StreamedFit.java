package org.cpca.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cpca.core.Progress;
import org.cpca.core.data.SampleSource;
import org.cpca.core.kernel.KernelCpca;
import org.cpca.core.kernel.KernelOptions;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.cpca.core.run.StreamedRun;

/**
 * A fit of files on the streamed plan (docs/memory.md): the inputs are opened to be read
 * in passes ({@link LoadedData#stream}: a TIFF as a virtual stack, a folder file by file,
 * a table row by row; a table that surely fits by its size on disk is not opened), the
 * {@link MemoryPlan} is made from their sizes, and when it
 * streams (asked by {@code --stream}, or because the samples do not fit in memory) the
 * method runs on the Gram matrix summed over feature tiles ({@link StreamedRun}).
 */
final class StreamedFit {

	/** What {@link #runIfPlanned} did: the streamed fit's report, or the plan in memory. */
	static final class Outcome {

		/** The report of the streamed fit, or {@code null} for a fit in memory. */
		final String report;
		/** The plan in memory, for the summary ({@code null} when none was made). */
		final String plan;

		Outcome(final String report, final String plan) {
			this.report = report;
			this.plan = plan;
		}
	}

	private StreamedFit() {}

	/**
	 * Runs the request on the streamed plan if the plan says so; otherwise nothing is read
	 * and the fit is to run in memory.
	 */
	static Outcome runIfPlanned(final FitRequest r, final OutputFolder out,
		final Progress progress) throws IOException
	{
		// a table that surely fits stays in memory without a pass to learn its size
		if (!r.stream && tableThatFits(r)) return new Outcome(null, null);
		if (r.missing == TableInput.Missing.MODEL) {
			if (r.stream) throw new IllegalArgumentException("--missing model keeps NaN " +
				"values in memory for PCPCA's EM, which the streamed plan does not hold: use " +
				"--missing mean or zero with --stream, or leave --stream out");
			return new Outcome(null, null);
		}
		final long t0 = System.nanoTime();
		final List<LoadedData> opened = new ArrayList<>();
		try {
			progress.stage("opening " + r.target, 0);
			final LoadedData t = LoadedData.stream("target", r.target, FitPipeline.targetReading(
				r));
			opened.add(t);
			long n = t.samples();
			for (int j = 0; j < r.backgrounds.size(); j++) {
				progress.stage("opening " + r.backgrounds.get(j), 0);
				final LoadedData b = FitPipeline.checkKind(t, LoadedData.stream(FitPipeline
					.backgroundName(r, j), r.backgrounds.get(j), FitPipeline.backgroundReading(r,
						j, t)));
				opened.add(b);
				n += b.samples();
			}
			final Settings s = r.settings;
			final MemoryPlan plan = MemoryPlan.choose(r.stream, StreamedRun.streams(s, n, t
				.features()), n, t.features(), opened.size(), s.components(), bytesPerValue(t),
				landmarks(s, n), s.method());
			if (!plan.stream) return new Outcome(null, plan.describe());
			for (int j = 0; j < r.backgrounds.size(); j++)
				if (MethodRunner.sameSource(r.target, r.targetWhere, r.backgrounds.get(j),
					r.backgroundWhere.get(j))) throw MethodRunner.sameAsTarget(opened.get(j + 1)
						.name(), "target");
			final List<String> labels = r.labels != null ? LoadedData.readLabels(r.labels, t
				.samples()) : t.labels();
			FitPipeline.checkSpace(r, out, t);
			t.facts.put("plan", plan.describe());
			t.facts.put("tile_bytes", plan.tileBytes);
			final List<SampleSource> bs = new ArrayList<>();
			final List<LoadedData> backgrounds = opened.subList(1, opened.size());
			backgrounds.forEach(b -> bs.add(b.source));
			final long t1 = System.nanoTime();
			final Solution solution;
			try {
				solution = StreamedRun.run(s, t.source, bs, labels, plan.tileBytes, progress);
			}
			catch (final UncheckedIOException e) {
				throw e.getCause();
			}
			final long t2 = System.nanoTime();
			final Map<String, Double> timings = new LinkedHashMap<>();
			timings.put("open", (t1 - t0) / 1e9);
			timings.put("fit", (t2 - t1) / 1e9); // the passes over the inputs and solving
			final Results results = new Results(solution, t, new ArrayList<>(backgrounds),
				labels, timings);
			results.allFigureFormats(r.allFigureFormats).classTitle(r.labelColumn).write(out,
				r.plots);
			return new Outcome("note: " + (r.stream ? "--stream: "
				: "the samples do not fit in memory: ") + plan.describe() + "\n" + results.report(
					r.out, r.plots), null);
		}
		finally {
			for (final LoadedData d : opened)
				d.source.close();
		}
	}

	/**
	 * Whether the target is a table (CSV or TSV) whose files, target and backgrounds,
	 * surely fit in memory by their size on disk ({@link MemoryPlan#tableFits}).
	 */
	private static boolean tableThatFits(final FitRequest r) throws IOException {
		if (Files.isDirectory(r.target) || !TableInput.isTable(r.target)) return false;
		long bytes = 0;
		for (final Path p : allInputs(r)) {
			if (!Files.isRegularFile(p)) return true; // missing: reading it says so
			bytes += Files.size(p);
		}
		return MemoryPlan.tableFits(bytes);
	}

	private static List<Path> allInputs(final FitRequest r) {
		final List<Path> all = new ArrayList<>();
		all.add(r.target);
		all.addAll(r.backgrounds);
		return all;
	}

	/** Nyström landmarks of kernel cPCA read in passes (0 for the other methods). */
	static int landmarks(final Settings s, final long n) {
		if (s.method() != Method.KERNEL) return 0;
		final int l = s.options(KernelOptions.class).landmarks();
		return l == KernelOptions.AUTOMATIC ? (int) Math.min(KernelCpca.DEFAULT_LANDMARKS, n)
			: Math.max(l, 0);
	}

	/**
	 * Bytes per value of an image as ImageJ holds it when read into memory, besides the
	 * float samples (0 for a table, or 32-bit pixels used in place).
	 */
	private static int bytesPerValue(final LoadedData t) {
		if (!t.isImage()) return 8; // the parsed table's rows, then its float samples
		final int bytes = t.image.getBitDepth() / 8;
		return bytes == 4 && t.layout.isIdentity() ? 0 : bytes;
	}
}
