package org.cpca.spark;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Moments;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.family.Fitter;
import org.cpca.core.result.Method;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.cpca.core.star.PlusPlusFamily;
import org.cpca.core.result.Solution;
import org.cpca.flags.InputFlags;
import org.cpca.flags.LinearMethodFlags;
import org.cpca.io.LoadedData;
import org.cpca.io.Results;
import org.cpca.io.TableInput;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code cpca-spark fit}: {@code cpca fit}'s linear methods with the same options and
 * the same results folder, the data read and reduced to moments by Spark's executors.
 */
@Command(name = "fit", sortOptions = false, mixinStandardHelpOptions = true,
	description = { "Fit PCA, cPCA (fixed α, inf or auto), cPCA* (star), cPCA++ (cpcapp), " +
		"gcPCA, PCPCA, UCA or rPCA on Apache Spark and write the same results folder as " +
		"cpca fit (summary.json, scores.csv, model.json, components.tif for images, " +
		"plots/). The flags are cpca fit's; --method takes pca, cpca, star, cpcapp, gcpca, " +
		"pcpca, uca or rpca here (online and kernel run with cpca fit).",
		"PATH is a CSV table, a Parquet table (*.parquet: a file or a folder of them), an " +
			"image stack (TIFF) or a folder of images, on a file system that the driver and " +
			"every executor see; tables and TIFF stacks may also be URIs of a Hadoop file " +
			"system (hdfs://…, s3a://…)." })
final class SparkFit implements Callable<Integer> {

	/** Above this many features the d × d moments (8d² bytes each) are not used. */
	static final int MAX_FEATURES = 4096;
	/** Above this many samples in all the N × N Gram matrix (8N² bytes) is not used. */
	static final int MAX_GRAM_SAMPLES = 20000;

	@ParentCommand
	SparkMain parent;

	@Spec
	CommandSpec spec;

	/** What the fit reads: the same flags as cpca fit. */
	@Mixin
	InputFlags input = new InputFlags();

	/** The linear methods' settings: the same flags as cpca fit. */
	@Mixin
	LinearMethodFlags linear = new LinearMethodFlags();

	@Option(names = "--master", paramLabel = "URL", description = "Spark master: " +
		"local[N] (default local[*]), or yarn, k8s://…, spark://… (from spark-submit the " +
		"master it was given).")
	String master;

	@Option(names = "--partitions", paramLabel = "N", defaultValue = "0", description =
		"Partitions per dataset (default: 2 × the cores Spark reports).")
	int partitions;

	@Option(names = "--path", paramLabel = "auto|moments|gram|range", defaultValue = "auto",
		description = "moments: per-partition d × d moments (many samples, d ≤ " +
			MAX_FEATURES + "); gram: per-feature means, then the N × N Gram matrix of all " +
			"samples summed over pixel tiles (many features, N ≤ " + MAX_GRAM_SAMPLES +
			"); range: both large, a randomized range finder gives one shared basis of " +
			"r directions, every α solved in it (exact when the data's rank ≤ r, " +
			"approximate otherwise); auto: gram when features outnumber samples, as cpca " +
			"fit chooses its reduced space, the other exact path if that one is too " +
			"large, range if both are (default: ${DEFAULT-VALUE}).")
	String path;

	@Option(names = "--rank", paramLabel = "R", defaultValue = "0", description =
		"--path range: the basis' dimension r (default: max(10k, 100), at most the " +
			"features and the samples); the sketch adds " + SparkRange.OVERSAMPLING +
			" columns and " + SparkRange.POWER_ITERATIONS + " power iterations.")
	int rank;

	/** For tests: the exact paths' limits (features,samples) instead of the defaults. */
	@Option(names = "--exact-limits", hidden = true, paramLabel = "D,N")
	String exactLimits;

	@Option(names = "--out", required = true, paramLabel = "DIR",
		description = "Folder for the results (created; written atomically): a path, or " +
			"a URI of a Hadoop file system (hdfs://…, s3a://…), copied there at the end.")
	Path out;

	/** For the retry test: the first attempt of partition 0 of every pass fails. */
	@Option(names = "--fail-first-attempt", hidden = true)
	boolean failFirstAttempt;

	@Override
	public Integer call() throws Exception {
		final long t0 = System.nanoTime();
		final SparkProgress progress = parent.progress();
		final Settings settings = parsedSettings();
		final CpcaOptions options = settings.cpcaOptions();
		final LoadedData.Reading how = new LoadedData.Reading();
		how.mask = input.mask;
		how.bin = input.bin;
		how.labelColumn = input.labelColumn;
		how.missing = parseMissing(input.missing);
		how.where = input.targetWhere;
		final List<Path> background = input.background;
		HadoopFiles.requireLocal("--labels", given("--labels", 0));
		HadoopFiles.requireLocal("--mask", given("--mask", 0));
		// a results folder on another file system: refused now if it is taken, not at the end
		if (HadoopFiles.isUri(given("--out", 0))) HadoopFiles.requireNewFolder(context(),
			given("--out", 0));
		final List<List<String>> backgroundWhere = input.backgroundWhere();
		// the driver opens (and for tables checks) every input: the same messages as cpca fit
		progress.stage("opening the target " + given("--target", 0), 0);
		final LoadedData t = open("target", given("--target", 0), input.target, how);
		final List<LoadedData> bs = new ArrayList<>();
		final List<LoadedData.Reading> bhow = new ArrayList<>();
		try {
			for (int j = 0; j < background.size(); j++) {
				final LoadedData.Reading bh = new LoadedData.Reading();
				bh.mask = input.mask;
				bh.bin = input.bin;
				bh.missing = how.missing;
				bh.where = backgroundWhere.get(j);
				bh.layout = t.layout;
				bh.featureNames = t.featureNames;
				bh.compatibleWith = t.image;
				progress.stage("opening the background " + given("--background", j), 0);
				final LoadedData b = open(background.size() == 1 ? "background"
					: "background " + (j + 1), given("--background", j), background.get(j), bh);
				bs.add(b);
				bhow.add(bh);
				if (t.isImage() != b.isImage()) throw new IllegalArgumentException(
					"the target is " + (t.isImage() ? "an image" : "a table") +
						" but the background is " + (b.isImage() ? "an image" : "a table") +
						": give both as images or both as tables");
				if (MethodRunner.sameSource(input.target, input.targetWhere, background.get(j),
					backgroundWhere.get(j))) throw MethodRunner.sameAsTarget(b.source.name(), t
						.source.name());
			}
			final int d = t.source.features();
			long all = t.samples();
			for (final LoadedData b : bs)
				all += b.samples();
			final String chosen = choosePath(d, all);
			if (chosen.equals("range")) rangeLimits(settings);
			final boolean gram = chosen.equals("gram");
			List<String> targetLabels = t.labels();
			if (input.labels != null) targetLabels = LoadedData.readLabels(input.labels, t
				.samples());
			final JavaSparkContext sc = context();
			final int p = partitions();
			final JavaRDD<float[]> targetRows = rows(t, how);
			final List<JavaRDD<float[]>> backgroundRows = new ArrayList<>();
			final List<String> names = new ArrayList<>();
			for (int j = 0; j < bs.size(); j++) {
				backgroundRows.add(rows(bs.get(j), bhow.get(j)));
				names.add(bs.get(j).source.name());
			}
			final long t1 = System.nanoTime();
			progress.stage((gram ? "means and the Gram matrix" : chosen.equals("range")
				? "means and the randomized range" : "means and covariances") + " on " + p +
				" partitions (passes over the data by the executors)", 0);
			final Fitter fitter = chosen.equals("moments") ? momentsFitter(sc, t, targetRows,
				targetLabels, bs, backgroundRows, names, options, d) : stackedFitter(sc, t,
					targetRows, targetLabels, bs, backgroundRows, names, options, d, gram);
			final long t2 = System.nanoTime();
			// the main model (model.json) by the same rule as cpca fit
			final Solution solution = MethodRunner.choosePrimary(run(settings, bs.size(),
				fitter, sparkFacts(sc, p, d, chosen, rangeFacts), pathNotes, progress),
				targetLabels);
			final long t3 = System.nanoTime();
			final Map<String, Double> timings = new LinkedHashMap<>();
			timings.put("read", (t1 - t0) / 1e9);
			timings.put(gram ? "means_and_gram" : chosen.equals("range") ? "means" : "moments",
				(t2 - t1) / 1e9);
			timings.put("fit", (t3 - t2) / 1e9); // driver solve and the scoring passes
			final Results results = new Results(solution, t, bs, targetLabels, timings);
			final List<Path> inputs = new ArrayList<>();
			inputs.add(t.path);
			bs.forEach(b -> inputs.add(b.path));
			if (input.labels != null) inputs.add(input.labels);
			if (input.mask != null) inputs.add(input.mask);
			final String outText = given("--out", 0);
			progress.stage("writing results to " + outText, 0);
			final String report;
			if (HadoopFiles.isUri(outText)) {
				// written here, then copied to its file system (docs/spark.md)
				final Path local = Files.createTempDirectory("cpca-spark-out");
				try {
					final Path dir = local.resolve("results");
					results.write(dir, inputs);
					HadoopFiles.publish(sc, dir, outText);
					report = results.report(dir).replace(dir.toAbsolutePath().normalize()
						.toString(), outText);
				}
				finally {
					HadoopFiles.deleteLocal(local);
				}
			}
			else {
				results.write(out, inputs);
				report = results.report(out);
			}
			progress.done();
			final PrintWriter w = parent.out();
			w.println(report);
			w.flush();
			return 0;
		}
		finally {
			t.source.close();
			for (final LoadedData b : bs)
				b.source.close();
		}
	}

	/**
	 * The text the user gave for an option's {@code index}-th value (a URI such as
	 * hdfs://host/x is not a path: as a Path it would lose its "//").
	 */
	private String given(final String option, final int index) {
		final picocli.CommandLine.Model.OptionSpec o = spec == null ? null : spec
			.commandLine().getParseResult().matchedOption(option);
		return o == null ? null : o.stringValues().get(index);
	}

	/** The tables opened from a URI so far, with it (the executors read them there). */
	private final Map<LoadedData, String> uris = new IdentityHashMap<>();

	/** The Parquet inputs opened so far, with their samples. */
	private final Map<LoadedData, JavaRDD<float[]>> parquet = new IdentityHashMap<>();

	/**
	 * Opens an input on the driver: a Parquet table with Spark SQL (the context starts
	 * here), anything else with the command line's readers.
	 */
	private LoadedData open(final String role, final String location, final Path path,
		final LoadedData.Reading how) throws IOException
	{
		HadoopFiles.requireReadable(role, location);
		if (HadoopFiles.isUri(location) && !SparkParquet.isParquet(location)) {
			final LoadedData data = HadoopFiles.isTiff(location) ? LoadedData.streamImage(role,
				path, location, HadoopTiff.open(context().hadoopConfiguration(), role, location),
				how) : HadoopFiles.openTable(context(), role, location, path, how);
			uris.put(data, location);
			return data;
		}
		if (!SparkParquet.isParquet(location)) return LoadedData.stream(role, path, how);
		final SparkParquet.Opened o = SparkParquet.open(context(), role, location, path, how,
			partitions(), failFirstAttempt);
		parquet.put(o.data, o.rows);
		return o.data;
	}

	/** The samples of an opened input as the executors read them. */
	private JavaRDD<float[]> rows(final LoadedData data, final LoadedData.Reading how)
		throws IOException
	{
		final JavaRDD<float[]> rows = parquet.get(data);
		if (rows != null) return rows;
		final SparkInput in = SparkInput.of(data, how, uris.get(data), context()
			.hadoopConfiguration());
		in.failFirstAttempt = failFirstAttempt;
		return in.rows(context(), partitions());
	}

	private JavaSparkContext context() {
		return parent.context(master, "cpca-spark fit");
	}

	/** Partitions per dataset: --partitions, or twice the cores Spark reports. */
	private int partitions() {
		return partitions > 0 ? partitions : 2 * context().defaultParallelism();
	}

	/** The executors must have read exactly the samples the driver counted. */
	private static void requireCount(final LoadedData data, final long count) {
		if (count != data.samples()) throw new IllegalArgumentException(data.path +
			" gave " + count + " samples to the executors but " + data.samples() +
			" to the driver: the file changed during the run, or it is not on a file " +
			"system that the driver and every executor see alike");
	}

	/**
	 * Which path: --path, or by the shape of the data as cpca fit chooses its space (the
	 * other exact path when that one is too large, the range when both are).
	 */
	private String choosePath(final int d, final long samples) {
		final String how = path.trim().toLowerCase(Locale.ROOT);
		if (!List.of("auto", "moments", "gram", "range").contains(how))
			throw new IllegalArgumentException("--path " + path + " is not known: use auto, " +
				"moments, gram or range");
		if (rank < 0) throw new IllegalArgumentException("--rank " + rank + " is negative: " +
			"give r ≥ 1, or 0 for the default");
		int maxFeatures = MAX_FEATURES;
		long maxSamples = MAX_GRAM_SAMPLES;
		if (exactLimits != null) {
			final String[] parts = exactLimits.split(",");
			maxFeatures = Integer.parseInt(parts[0].trim());
			maxSamples = Long.parseLong(parts[1].trim());
		}
		final boolean momentsFit = d <= maxFeatures, gramFits = samples <= maxSamples;
		final String chosen;
		if (how.equals("auto")) chosen = d > samples ? (gramFits ? "gram" : momentsFit
			? "moments" : "range") : momentsFit ? "moments" : gramFits ? "gram" : "range";
		else chosen = how;
		if (chosen.equals("gram") && !gramFits || chosen.equals("moments") && !momentsFit)
			throw new IllegalArgumentException("the data have " + samples + " samples in all " +
				"and " + d + " features: --path " + chosen + " handles at most " + (chosen
					.equals("gram") ? maxSamples + " samples" : maxFeatures + " features") +
				"; use --path auto or range (a randomized basis), bin the images (--bin 2 or " +
				"more), or give a --mask");
		return chosen;
	}

	/**
	 * What the range path cannot do exactly: PCPCA's noise variance needs the trace of
	 * C_t − αC_b outside the basis too (refused), and cPCA++'s Ledoit–Wolf ridge the
	 * background's variance in every direction (the fixed ε instead, with a note).
	 */
	private void rangeLimits(final Settings s) {
		if (s.method() == Method.PCPCA) throw new IllegalArgumentException("PCPCA does not run " +
			"on --path range: its noise variance needs the variance outside the range's " +
			"basis; use --path moments or gram (bin the images with --bin, or give a --mask, " +
			"to bring the data within their limits)");
		if (s.method() == Method.CPCAPP && Double.isNaN(s.options(PlusPlusFamily.Options.class)
			.epsilon())) pathNotes.add("cPCA++ on " +
			"the range path: no Ledoit–Wolf ridge (it needs the background's variance in " +
			"every direction, not only in the basis); the fixed ε = 1e-6 applies on a " +
			"singular C_b, as cpca fit --epsilon 1e-6 would");
	}

	/** r, p, q and the basis found, for the summary of the range path. */
	private final Map<String, Object> rangeFacts = new LinkedHashMap<>();

	/** Notes of the gram path's preprocessing (zero-variance features), for the summary. */
	private final List<String> pathNotes = new ArrayList<>();

	private Fitter momentsFitter(final JavaSparkContext sc, final LoadedData t,
		final JavaRDD<float[]> targetRows, final List<String> targetLabels,
		final List<LoadedData> bs, final List<JavaRDD<float[]>> backgroundRows,
		final List<String> names, final CpcaOptions options, final int d)
	{
		final Moments tm = SparkMoments.moments(targetRows, d);
		requireCount(t, tm.count());
		final List<Moments> bm = new ArrayList<>();
		for (int j = 0; j < bs.size(); j++) {
			bm.add(SparkMoments.moments(backgroundRows.get(j), d));
			requireCount(bs.get(j), bm.get(j).count());
		}
		return pool -> {
			List<String> n = names;
			List<Moments> b = bm;
			if (pool) {
				Moments all = Moments.empty(d);
				for (final Moments m : bm)
					all = all.merge(m);
				n = List.of(pooledName(names));
				b = List.of(all);
			}
			final List<Moments> merged = b;
			final boolean pooled = pool;
			// cPCA++'s Ledoit–Wolf ridge: one more pass over a background when it is asked
			return Cpca.fromMoments(t.source.name(), tm, targetLabels, n, b, options,
				SparkMoments.projection(sc, targetRows)).withFourthMoments(j -> {
					if (pooled) throw new IllegalStateException("no fourth moments of pooled " +
						"backgrounds");
					return SparkMoments.fourthMoment(sc, backgroundRows.get(j), merged.get(j)
						.preprocessing(names.get(j), options.standardize(), null));
				}).withSubsetMoments((set, rows) -> {
					// PCPCA's held-out split: one pass over that dataset per part
					if (pooled) throw new IllegalStateException("no parts of pooled backgrounds");
					return SparkMoments.subset(sc, set == 0 ? targetRows : backgroundRows.get(set -
						1), rows, d);
				});
		};
	}

	private static String pooledName(final List<String> names) {
		return "pooled backgrounds (" + String.join(", ", names) + ")";
	}

	/**
	 * The gram and range paths: per-feature means (and standard deviations) of every
	 * dataset, then the Gram matrix of the stacked preprocessed samples, or a randomized
	 * basis and the moments projected on it.
	 */
	private Fitter stackedFitter(final JavaSparkContext sc, final LoadedData t,
		final JavaRDD<float[]> targetRows, final List<String> targetLabels,
		final List<LoadedData> bs, final List<JavaRDD<float[]>> backgroundRows,
		final List<String> names, final CpcaOptions options, final int d,
		final boolean useGram)
	{
		final List<String> notes = pathNotes;
		final SparkGram.Diagonal td = SparkGram.diagonal(targetRows, d);
		requireCount(t, td.n);
		final List<SparkGram.Diagonal> bd = new ArrayList<>();
		for (int j = 0; j < bs.size(); j++) {
			bd.add(SparkGram.diagonal(backgroundRows.get(j), d));
			requireCount(bs.get(j), bd.get(j).n);
		}
		return pool -> {
			final List<JavaRDD<float[]>> sets = new ArrayList<>();
			final List<SparkGram.Diagonal> diag = new ArrayList<>();
			final List<String> n = new ArrayList<>();
			sets.add(targetRows);
			diag.add(td);
			if (pool && bs.size() > 1) {
				JavaRDD<float[]> union = backgroundRows.get(0);
				SparkGram.Diagonal merged = bd.get(0);
				for (int j = 1; j < bs.size(); j++) {
					union = union.union(backgroundRows.get(j));
					merged = merged.merge(bd.get(j));
				}
				sets.add(union);
				diag.add(merged);
				n.add(pooledName(names));
			}
			else {
				sets.addAll(backgroundRows);
				diag.addAll(bd);
				n.addAll(names);
			}
			final List<Preprocessing> pres = new ArrayList<>();
			final long[] counts = new long[sets.size()];
			for (int s = 0; s < sets.size(); s++) {
				pres.add(diag.get(s).preprocessing(s == 0 ? t.source.name() : n.get(s - 1),
					options.standardize(), notes));
				counts[s] = diag.get(s).n;
			}
			if (!useGram) return rangeFit(sc, t, targetRows, targetLabels, sets, pres, diag
				.get(0), counts, n, options, d);
			final double[] g = SparkGram.gram(sc, sets, pres, counts, d);
			return Cpca.fromGram(t.source.name(), pres.get(0), (int) counts[0], targetLabels, n,
				Arrays.copyOfRange(counts, 1, counts.length), g, d, options, SparkGram
					.lift(sc, sets, pres, counts, d)).withFourthMoments(j -> SparkGram
						.fourthMoment(g, counts, j + 1));
		};
	}

	/** The range path's fit: the basis, the projected moments, the core solvers in them. */
	private Cpca rangeFit(final JavaSparkContext sc, final LoadedData t,
		final JavaRDD<float[]> targetRows, final List<String> targetLabels,
		final List<JavaRDD<float[]>> sets, final List<Preprocessing> pres,
		final SparkGram.Diagonal target, final long[] counts, final List<String> names,
		final CpcaOptions options, final int d)
	{
		long all = 0;
		for (final long c : counts)
			all += c;
		final int r = SparkRange.rank(rank, options.components(), d, all);
		final SparkRange.Range range = SparkRange.fit(sc, sets, pres, d, r, options.seed());
		rangeFacts.put("rank", range.r);
		rangeFacts.put("rank_asked", r);
		rangeFacts.put("oversampling", SparkRange.OVERSAMPLING);
		rangeFacts.put("power_iterations", SparkRange.POWER_ITERATIONS);
		rangeFacts.put("seed", options.seed());
		pathNotes.add("path: range, a randomized basis of r = " + range.r + " directions (p = " +
			SparkRange.OVERSAMPLING + ", q = " + SparkRange.POWER_ITERATIONS + ", seed " +
			options.seed() + "); exact when the data's rank is at most r");
		// the target's total variance in feature space: Σ_j M2_j / ((n − 1) s_j²)
		final double[] scale = pres.get(0).scale();
		double total = 0;
		for (int j = 0; j < d; j++)
			total += target.m2[j] / (scale == null ? 1 : scale[j] * scale[j]);
		total /= target.n - 1;
		return Cpca.fromRange(t.source.name(), pres.get(0), total, range.moments.get(0),
			targetLabels, names, range.moments.subList(1, range.moments.size()), options,
			range.basis, d, SparkMoments.projection(sc, targetRows));
	}

	private static Map<String, Object> sparkFacts(final JavaSparkContext sc,
		final int partitions, final int d, final String path,
		final Map<String, Object> range)
	{
		final boolean gram = path.equals("gram");
		final Map<String, Object> spark = new LinkedHashMap<>();
		spark.put("master", sc.master());
		spark.put("version", sc.version());
		spark.put("default_parallelism", sc.defaultParallelism());
		spark.put("partitions", partitions);
		spark.put("path", path);
		if (path.equals("range")) {
			spark.put("range", range); // filled when the fit runs
			spark.put("path_detail", "per-feature means by Chan's formula; a seeded Gaussian " +
				"sketch ZᵀZΩ of the stacked centred samples (d = " + d + ", r + p columns) " +
				"and q power iterations, each one pass, orthonormalised on the driver; the " +
				"top r directions Q, then each dataset's moments of Qᵀz (r × r); the driver " +
				"solves in that space for every α and maps each solution back as Qv");
			return Map.of("spark", spark);
		}
		spark.put("path_detail", gram ? "per-feature means by Chan's formula, then the " +
			"N × N Gram matrix of the stacked centred samples summed over pixel tiles; the " +
			"driver solves in the reduced space; target scores without a pass, each model's " +
			"components by a pass broadcasting the sample coefficients (d = " + d + ")"
			: "per-partition count, mean and d × d scatter (d = " + d + "), merged by Chan's " +
				"formula in a tree aggregation; the driver solves in the d × d feature space; " +
				"scores by a second pass broadcasting the components");
		return Map.of("spark", spark);
	}

	/**
	 * The methods on a fit from moments (or a Gram matrix, or a range): the core's own
	 * dispatch ({@link MethodRunner#fromFit}, which {@code cpca fit} runs too), with the
	 * Spark facts and the path's notes added to the summary.
	 */
	static Solution run(final Settings s, final int nb, final Fitter fitter,
		final Map<String, Object> facts, final List<String> notes, final Progress progress)
	{
		final Solution solution = MethodRunner.fromFit(s, nb, fitter, progress);
		final Map<String, Object> all = new LinkedHashMap<>(solution.facts());
		all.putAll(facts);
		final List<String> diagnostics = new ArrayList<>(notes);
		for (final String n : solution.diagnostics())
			if (!diagnostics.contains(n)) diagnostics.add(n);
		return new Solution(solution.method(), solution.alphaMode(), solution.models(),
			solution.selection(), solution.fit(), solution.curves(), all, diagnostics);
	}

	/**
	 * The user's settings, parsed by {@link Settings} exactly as {@code cpca fit} parses
	 * them (one parser for every front end), and checked to be a method that runs here.
	 */
	Settings parsedSettings() {
		final Settings s = linear.settings();
		if (!MethodRunner.runsFromFit(s.method())) throw new IllegalArgumentException(
			"--method " + s.method().id + " does not run on Spark (its fit needs more than " +
			"each dataset's moments): use pca, cpca, star, cpcapp, gcpca, pcpca, uca or rpca " +
			"here, or cpca fit on one machine");
		return s;
	}

	/** As cpca fit reads it; "model" (PCPCA's EM over the samples) does not run on Spark. */
	static TableInput.Missing parseMissing(final String text) {
		final TableInput.Missing m = TableInput.parseMissing(text);
		if (m == TableInput.Missing.MODEL) throw new IllegalArgumentException("--missing " +
			"model (PCPCA's EM over the observed values) needs the samples and does not run " +
			"on Spark: use drop, mean or zero, or cpca fit on one machine");
		return m;
	}
}
