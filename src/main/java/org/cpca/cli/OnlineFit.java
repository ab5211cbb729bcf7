package org.cpca.cli;

import org.cpca.io.LoadedData;
import org.cpca.io.Results;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.run.MethodSettings;
import org.cpca.core.online.OnlineCpcaStar;
import org.cpca.core.online.OnlineOptions;
import org.cpca.core.data.SampleStream;
import org.cpca.core.run.Solution;

/**
 * {@code cpca fit --method online}: online cPCA* on inputs streamed from disk (CSV row by
 * row, TIFF slice by slice, a folder file by file; {@link LoadedData#stream}), with the
 * usual outputs of {@link Results} plus {@code convergence.csv} and
 * {@code plots/convergence.png}.
 */
final class OnlineFit {

	private final FitCommand c;

	OnlineFit(final FitCommand command) {
		this.c = command;
	}

	/** The options of the run, checked. */
	OnlineOptions options() {
		if (c.retain != null || c.whiten) throw new IllegalArgumentException("--retain and " +
			"--whiten are not available for --method online: leave them out");
		if (c.background.size() != 1) throw new IllegalArgumentException("online cPCA* " +
			"needs exactly one --background (got " + c.background.size() + ")");
		final OnlineOptions o = OnlineOptions.defaults().withComponents(c.components)
			.withRates(c.eta, c.tau).withBeta(beta(c.beta)).withEpochs(c.epochs).withSeed(
				c.seed).withOrder(SampleStream.Order.parse(c.order)).withCentring(OnlineOptions
					.Centring.parse(c.centring)).withStandardize(c.standardize).withCheckpoints(
						c.checkpoints);
		o.checkCombination();
		return o;
	}

	/** β from --beta: a number in [0, 1]; "auto" (the default for star) is refused. */
	static double beta(final String text) {
		final double b = MethodSettings.parseBeta(text, "--beta");
		// online cPCA* learns at one fixed β; automatic β (--method star) needs all the data
		return Double.isNaN(b) ? OnlineOptions.DEFAULT_BETA : b;
	}

	int run() throws IOException {
		final long t0 = System.nanoTime();
		final OnlineOptions o = options();
		final String mode = c.reference.trim().toLowerCase(Locale.ROOT);
		if (!mode.equals("auto") && !mode.equals("offline") && !mode.equals("none"))
			throw new IllegalArgumentException("--reference " + c.reference +
				" is not known: use auto, offline or none");
		final LoadedData.Reading how = new LoadedData.Reading();
		how.mask = c.mask;
		how.bin = c.bin;
		how.labelColumn = c.labelColumn;
		how.missing = FitCommand.parseMissing(c.missing);
		how.where = c.targetWhere;
		final ConsoleProgress progress = ConsoleProgress.forTerminal();
		LoadedData t = null, b = null;
		try {
			progress.stage("opening " + c.target, 0);
			t = LoadedData.stream("target", c.target, how);
			final LoadedData.Reading bh = new LoadedData.Reading();
			bh.mask = c.mask;
			bh.bin = c.bin;
			bh.missing = how.missing;
			bh.where = c.backgroundWhere;
			bh.layout = t.layout;
			bh.featureNames = t.featureNames;
			bh.compatibleWith = t.image;
			progress.stage("opening " + c.background.get(0), 0);
			b = LoadedData.stream("background", c.background.get(0), bh);
			if (t.isImage() != b.isImage()) throw new IllegalArgumentException("the target is " +
				(t.isImage() ? "an image" : "a table") + " but the background is " + (b
					.isImage() ? "an image" : "a table") + ": give both as images or both as " +
				"tables");
			final List<String> labels = c.labels != null ? LoadedData.readLabels(c.labels, t
				.samples()) : t.labels();
			final long t1 = System.nanoTime();
			final boolean compare = mode.equals("offline") || mode.equals("auto") &&
				OnlineCpcaStar.referenceFits(t.source, b.source);
			final CpcaModel offline = compare ? OnlineCpcaStar.offlineReference(t.source,
				b.source, o, progress) : null;
			final long t2 = System.nanoTime();
			final OnlineCpcaStar.Result result = OnlineCpcaStar.fit(t.source, b.source, o,
				offline == null ? null : offline.components(), progress);
			final long t3 = System.nanoTime();
			progress.done();
			final Solution solution = result.solution(o, offline);
			final Map<String, Double> timings = new LinkedHashMap<>();
			timings.put("open", (t1 - t0) / 1e9);
			timings.put("offline_reference", (t2 - t1) / 1e9);
			timings.put("fit", (t3 - t2) / 1e9);
			final Results results = new Results(solution, t, List.of(b), labels, timings);
			final List<Path> inputs = new ArrayList<>(List.of(t.path, b.path));
			if (c.labels != null) inputs.add(c.labels);
			if (c.mask != null) inputs.add(c.mask);
			results.write(c.out, inputs);
			c.out().println(results.report(c.out));
			c.out().flush();
			return 0;
		}
		finally {
			progress.done();
			try {
				if (t != null) t.source.close();
			}
			finally {
				if (b != null) b.source.close();
			}
		}
	}
}
