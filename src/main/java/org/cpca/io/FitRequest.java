package org.cpca.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.cpca.core.run.Settings;
import org.cpca.image.Axes;

/**
 * One fit from files into a results folder, as every front end asks for it ({@code cpca
 * fit}, Fiji's Batch…): the inputs, how to read them, the method's {@link Settings} and
 * the output folder. Immutable; made with {@link #builder()}.
 */
public final class FitRequest {

	public final Path target;
	/** One or several backgrounds (UCA and rPCA take several); empty for PCA. */
	public final List<Path> backgrounds;
	/** A labels file (one label per target sample), or {@code null}. */
	public final Path labels;
	/** A mask image (nonzero pixels are the features), or {@code null}. */
	public final Path mask;
	public final int bin;
	/** How a hyperstack's axes are read ({@link Axes}); null: auto. */
	public final String axes;
	/** Tables: the column that holds class labels, or {@code null}. */
	public final String labelColumn;
	public final TableInput.Missing missing;
	/** Tables: the target's row filters ({@code COLUMN=VALUE}). */
	public final List<String> targetWhere;
	/** Tables: each background's row filters, one list per background. */
	public final List<List<String>> backgroundWhere;
	public final Settings settings;
	public final Path out;
	/** Replace the results of an earlier run in a non-empty {@link #out} (never other files). */
	public final boolean overwrite;
	/** Write plots/ (false: the numbers and images only). */
	public final boolean plots;
	/** Every figure also as a high-resolution PNG and SVG (false: PNG only). */
	public final boolean allFigureFormats;
	/** How messages name the output folder and the overwrite switch. */
	public final OutputFolder.Names names;
	/**
	 * Read the inputs in passes by feature tiles instead of into memory (docs/memory.md),
	 * whatever the heap; without it the plan is chosen by memory ({@link MemoryPlan}).
	 */
	public final boolean stream;

	private FitRequest(final Builder b) {
		target = b.target;
		backgrounds = Collections.unmodifiableList(new ArrayList<>(b.backgrounds));
		labels = b.labels;
		mask = b.mask;
		bin = b.bin;
		axes = b.axes;
		labelColumn = b.labelColumn;
		missing = b.missing;
		targetWhere = Collections.unmodifiableList(new ArrayList<>(b.targetWhere));
		final List<List<String>> bw = new ArrayList<>();
		for (int j = 0; j < backgrounds.size(); j++)
			bw.add(Collections.unmodifiableList(new ArrayList<>(j < b.backgroundWhere.size()
				? b.backgroundWhere.get(j) : Collections.emptyList())));
		backgroundWhere = Collections.unmodifiableList(bw);
		settings = b.settings;
		out = b.out;
		overwrite = b.overwrite;
		plots = b.plots;
		allFigureFormats = b.allFigureFormats;
		names = b.names;
		stream = b.stream;
	}

	public static Builder builder() {
		return new Builder();
	}

	/** The files read by this fit (inputs that must never be written to). */
	public List<Path> inputs() {
		final List<Path> in = new ArrayList<>();
		in.add(target);
		in.addAll(backgrounds);
		if (labels != null) in.add(labels);
		if (mask != null) in.add(mask);
		return in;
	}

	/** Collects a request; {@link #build()} checks that the required parts are there. */
	public static final class Builder {

		private Path target;
		private final List<Path> backgrounds = new ArrayList<>();
		private Path labels, mask;
		private int bin = 1;
		private String axes;
		private String labelColumn;
		private TableInput.Missing missing = TableInput.Missing.DROP;
		private List<String> targetWhere = new ArrayList<>();
		private List<List<String>> backgroundWhere = new ArrayList<>();
		private Settings settings = Settings.defaults();
		private Path out;
		private boolean overwrite;
		private boolean plots = true;
		private boolean allFigureFormats;
		private OutputFolder.Names names = OutputFolder.Names.CLI;
		private boolean stream;

		/** Force the streamed plan (default: chosen by memory). */
		public Builder stream(final boolean b) {
			stream = b;
			return this;
		}

		/** Replace an earlier run's results in a non-empty output folder. */
		public Builder overwrite(final boolean b) {
			overwrite = b;
			return this;
		}

		/** Every figure also as {@code *_hires.png} and {@code *.svg} (default: PNG only). */
		public Builder allFigureFormats(final boolean b) {
			allFigureFormats = b;
			return this;
		}

		/** Write plots/ (default true). */
		public Builder plots(final boolean b) {
			plots = b;
			return this;
		}

		/** How messages name the output folder and the overwrite switch. */
		public Builder names(final OutputFolder.Names n) {
			names = n;
			return this;
		}

		public Builder target(final Path p) {
			target = p;
			return this;
		}

		public Builder background(final Path p) {
			backgrounds.add(p);
			return this;
		}

		public Builder backgrounds(final List<Path> ps) {
			backgrounds.clear();
			backgrounds.addAll(ps);
			return this;
		}

		public Builder labels(final Path p) {
			labels = p;
			return this;
		}

		public Builder mask(final Path p) {
			mask = p;
			return this;
		}

		/** How a hyperstack's axes are read: {@link Axes#VALUES}. */
		public Builder axes(final String a) {
			axes = a;
			return this;
		}

		public Builder bin(final int n) {
			if (n < 1) throw new IllegalArgumentException("bin must be ≥ 1 (got " + n +
				"): 1 keeps every pixel, 2 averages 2 × 2 blocks, …");
			bin = n;
			return this;
		}

		public Builder labelColumn(final String c) {
			labelColumn = c;
			return this;
		}

		public Builder missing(final TableInput.Missing m) {
			missing = m;
			return this;
		}

		public Builder targetWhere(final List<String> w) {
			targetWhere = new ArrayList<>(w);
			return this;
		}

		/** Row filters per background (index j for background j + 1). */
		public Builder backgroundWhere(final List<List<String>> w) {
			backgroundWhere = new ArrayList<>(w);
			return this;
		}

		public Builder settings(final Settings s) {
			settings = s;
			return this;
		}

		public Builder out(final Path p) {
			out = p;
			return this;
		}

		public FitRequest build() {
			if (target == null) throw new IllegalArgumentException(
				"there is no target: give the target stack, folder or table");
			if (out == null) throw new IllegalArgumentException(
				"there is no output folder: give the folder for the results");
			return new FitRequest(this);
		}
	}
}
