package org.cpca.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import ij.ImagePlus;

import org.cpca.core.Memory;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.MissingValues;
import org.cpca.core.data.SampleSource;
import org.cpca.image.Axes;
import org.cpca.image.FeatureLayout;
import org.cpca.image.FolderSource;
import org.cpca.image.ImageInput;
import org.cpca.image.StackSamples;
import org.cpca.image.StackReader;

/**
 * One input of the command line, loaded as samples × features: an image stack or a
 * folder of images (slices as samples), or a CSV table (rows as samples).
 */
public final class LoadedData {

	final String role;
	public final Path path;
	public final Dataset dataset;
	/** Pixel layout for images, null for tables. */
	public final FeatureLayout layout;
	/** The opened image, null for tables. */
	public final ImagePlus image;
	/** Feature column names for tables, null for images. */
	public final List<String> featureNames;
	/** Facts for the summary: ignored columns, dropped rows, … */
	public final Map<String, Object> facts;
	/**
	 * Notes about how the input was read, for the diagnostics: skipped files of a folder,
	 * how a hyperstack's axes were used, ….
	 */
	public final List<String> notes = new ArrayList<>();
	/** For streamed input ({@link #stream}): the reader; then {@link #dataset} is null. */
	public final SampleSource source;
	/**
	 * Tables and images read with {@code --missing model}: the values with NaN where a cell
	 * was empty or a pixel NaN ({@link #dataset} then holds feature means there); null
	 * otherwise.
	 */
	public float[][] withMissing;

	private LoadedData(final String role, final Path path, final Dataset dataset,
		final FeatureLayout layout, final ImagePlus image, final List<String> featureNames,
		final Map<String, Object> facts, final SampleSource source)
	{
		this.role = role;
		this.path = path;
		this.dataset = dataset;
		this.layout = layout;
		this.image = image;
		this.featureNames = featureNames;
		this.facts = facts;
		this.source = source;
	}

	public boolean isImage() {
		return layout != null;
	}

	/** What the user calls this input ("target", "background"). */
	String name() {
		return dataset != null ? dataset.name() : source.name();
	}

	public int samples() {
		return dataset != null ? dataset.samples() : source.samples();
	}

	int features() {
		return dataset != null ? dataset.features() : source.features();
	}

	/** Class labels of the samples, or null. */
	public List<String> labels() {
		return dataset != null ? dataset.labels() : source.labels();
	}

	/** How a file is read: mask, binning, label column and missing-value policy. */
	public static final class Reading {

		public Path mask;
		public int bin = 1;
		/** How a hyperstack's axes are read ({@link Axes#VALUES}); null: auto. */
		public String axes;
		public String labelColumn;
		public TableInput.Missing missing = TableInput.Missing.DROP;
		/** Table row filters COLUMN=VALUE. */
		public List<String> where = new ArrayList<>();
		/** For applying a model: the layout or feature columns it was fitted on. */
		public FeatureLayout layout;
		public List<String> featureNames;
		/** For a background: the target image it must match (size and type). */
		public ImagePlus compatibleWith;
	}

	public static LoadedData load(final String role, final Path path, final Reading how)
		throws IOException
	{
		requireExists(role, path);
		final Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("path", path.toString());
		if (!Files.isDirectory(path) && TableInput.isTable(path)) {
			final TableInput t = TableInput.read(role, path, how.featureNames,
				how.labelColumn, how.missing, how.where);
			tableFacts(facts, how, t.dataset.samples(), t.dataset.features(),
				t.ignoredColumns, t.rowsRead, t.rowsDropped, t.cellsFilled);
			facts.put("separator", t.separator == '\t' ? "tab" : String.valueOf(t.separator));
			facts.put("decimal_mark", t.decimalMark);
			final LoadedData loaded = new LoadedData(role, path, t.dataset, null, null,
				t.featureNames, facts, null);
			loaded.withMissing = t.withMissing;
			return loaded;
		}
		final StackReader reader = laidOut(role, StackReader.of(role, ImageInput.open(path,
			role), how.axes), how);
		final ImagePlus imp = reader.image();
		final FeatureLayout layout = reader.layout();
		if (!(layout.isIdentity() && imp.getBitDepth() == 32)) Memory.require(
			"the " + role + " samples (" + imp.getStackSize() + " × " + layout.features() +
				" features)", Memory.floats(imp.getStackSize(), layout.features()),
			"use --bin 2 or --mask (fewer features), or --method online (streams the inputs)");
		// our own image: shared, not copied
		final Slices read = slices(reader, how.missing, true);
		Dataset ds = read.dataset;
		if (read.values != null) {
			facts.put("missing", how.missing.name().toLowerCase());
			facts.put("missing_pixels", MissingValues.count(read.values));
		}
		final List<String> classes = reader.labels();
		if (classes != null) ds = ds.withLabels(classes);
		facts.put("kind", Files.isDirectory(path) ? "image folder" : "image");
		imageFacts(facts, ds.samples(), ds.features(), imp, layout);
		final LoadedData d = new LoadedData(role, path, ds, layout, imp, null, facts, null);
		if (how.missing == TableInput.Missing.MODEL) d.withMissing = read.values;
		d.noteSkipped(path);
		d.noteAxes(reader);
		return d;
	}

	/** A stack's slices read by a missing-value rule ({@link #slices}). */
	public static final class Slices {

		/** The samples, NaN pixels filled if they were kept. */
		public final Dataset dataset;
		/** The values with their NaN pixels; {@code null} when NaN pixels are refused. */
		public final float[][] values;

		private Slices(final Dataset dataset, final float[][] values) {
			this.dataset = dataset;
			this.values = values;
		}
	}

	/**
	 * The slices of {@code reader} by a missing-value rule, for the command line and the
	 * Fiji commands and macros alike: NaN pixels refused ({@code drop}), or kept and filled
	 * by their feature's mean ({@code mean}, and {@code model}, whose fit then models them
	 * from the kept values) or by 0 ({@code zero}).
	 *
	 * @param share whether refused-NaN slices may share the image's own pixel arrays
	 *          (an image the caller opened, never the user's)
	 */
	public static Slices slices(final StackReader reader, final TableInput.Missing missing,
		final boolean share)
	{
		if (missing == TableInput.Missing.DROP) return new Slices(reader.dataset(share), null);
		final float[][] values = reader.values();
		return new Slices(reader.filled(values, missing != TableInput.Missing.ZERO), values);
	}

	/** Opens a table's bytes from the start (e.g. a file on a Hadoop file system). */
	public interface Opener {

		InputStream open() throws IOException;
	}

	/**
	 * A CSV or TSV table read row by row from {@code bytes} (opened once or twice, from
	 * the start), with every rule, check and message of {@link #stream} for a local table;
	 * messages and the "path" fact name it {@code location} (e.g. the URI of a file on
	 * HDFS or S3, docs/spark.md). Its samples are read elsewhere (rows can be read in
	 * order only), e.g. by a cluster's executors.
	 *
	 * @param path the location as a path (for the results' bookkeeping)
	 */
	public static LoadedData streamTable(final String role, final Path path,
		final String location, final Opener bytes, final Reading how) throws IOException
	{
		final Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("path", location);
		final TableStream t = TableStream.open(role, location, () -> TableInput.Rows.open(
			location, bytes.open()), how.featureNames, how.labelColumn, how.missing, how.where);
		facts.put("read", "row by row");
		tableFacts(facts, how, t.samples(), t.features(), t.ignoredColumns(), t.rowsRead,
			t.rowsDropped, t.cellsFilled);
		return new LoadedData(role, path, null, null, null, t.featureNames(), facts, t);
	}

	/**
	 * An image stack opened elsewhere (e.g. a virtual stack whose slices are read from a
	 * Hadoop file system, docs/spark.md), with {@link #stream}'s axes, mask, binning,
	 * compatibility checks and facts for a local TIFF; "path" is {@code location}.
	 *
	 * @param path the location as a path (for the results' bookkeeping)
	 */
	public static LoadedData streamImage(final String role, final Path path,
		final String location, final ImagePlus opened, final Reading how)
	{
		final Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("path", location);
		final StackReader reader = laidOut(role, StackReader.of(role, opened, how.axes), how);
		final LoadedData d = streamed(role, path, facts, reader, "image",
			"slice by slice (virtual stack)");
		d.noteAxes(reader);
		return d;
	}

	/** An image read one sample at a time by the reader's source, with its facts. */
	private static LoadedData streamed(final String role, final Path path,
		final Map<String, Object> facts, final StackReader reader, final String kind,
		final String read)
	{
		final SampleSource source = reader.source();
		facts.put("kind", kind);
		facts.put("read", read);
		imageFacts(facts, source.samples(), source.features(), reader.image(), reader
			.layout());
		return new LoadedData(role, path, null, reader.layout(), reader.image(), null, facts,
			source);
	}

	/**
	 * Opens an input to be read one sample at a time ({@link #source}), never all at once:
	 * a CSV table row by row ({@link TableStream}, the same rules as {@link #load}), a
	 * TIFF slice by slice (a virtual stack), a folder one file per sample
	 * ({@link FolderSource}). Other image formats are read into memory by ImageJ (noted
	 * in the facts). The caller closes the source.
	 */
	public static LoadedData stream(final String role, final Path path, final Reading how)
		throws IOException
	{
		requireExists(role, path);
		final Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("path", path.toString());
		if (!Files.isDirectory(path) && TableInput.isTable(path)) {
			final TableStream t = TableStream.open(role, path, how.featureNames,
				how.labelColumn, how.missing, how.where);
			facts.put("read", "row by row");
			tableFacts(facts, how, t.samples(), t.features(), t.ignoredColumns(), t.rowsRead,
				t.rowsDropped, t.cellsFilled);
			return new LoadedData(role, path, null, null, null, t.featureNames(), facts, t);
		}
		final boolean folder = Files.isDirectory(path);
		final StackReader reader = laidOut(role, folder ? StackReader.folder(role, path,
			how.axes) : StackReader.of(role, ImageInput.openVirtual(path), how.axes), how);
		final LoadedData d = streamed(role, path, facts, reader, folder ? "image folder"
			: "image", folder ? "one file per sample" : reader.image().getStack().isVirtual()
				? "slice by slice (virtual stack)" : "into memory (not a TIFF)");
		d.noteSkipped(path);
		d.noteAxes(reader);
		return d;
	}

	/**
	 * A table that another reader opened and checked — a Parquet table that a cluster's
	 * executors read (docs/spark.md) — described for the results folder as {@link #stream}
	 * describes a CSV table: {@code source} gives its size, its features and the target's
	 * labels; its samples are read where that reader reads them.
	 *
	 * @param read how the rows are read, for the summary (e.g. "Parquet, by the executors")
	 */
	public static LoadedData table(final String role, final Path path, final SampleSource source,
		final List<String> featureNames, final List<String> ignored, final Reading how,
		final int rowsRead, final int rowsDropped, final long cellsFilled, final String read)
	{
		final Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("path", path.toString());
		facts.put("read", read);
		tableFacts(facts, how, source.samples(), source.features(), ignored, rowsRead,
			rowsDropped, cellsFilled);
		return new LoadedData(role, path, null, null, null, List.copyOf(featureNames), facts,
			source);
	}

	/** Records how a hyperstack's axes were used (facts, and a note for the diagnostics). */
	private void noteAxes(final StackReader reader) {
		facts.put("axes", reader.axes().mode);
		facts.put("axes_use", reader.axes().use);
		if (reader.note() != null) notes.add(reader.note());
	}

	/** Lists the files of a folder that were not read as images (facts and notes). */
	private void noteSkipped(final Path path) {
		if (!Files.isDirectory(path)) return;
		final List<String> skipped = ImageInput.skippedFiles(path);
		facts.put("skipped_files", skipped);
		if (!skipped.isEmpty()) notes.add(role + " folder " + path + ": " + skipped.size() +
			" file" + (skipped.size() == 1 ? " was" : "s were") + " not read as images: " +
			String.join(", ", skipped.subList(0, Math.min(10, skipped.size()))) + (skipped
				.size() > 10 ? ", …" : ""));
	}

	/**
	 * Refuses an empty path, a symbolic link that cannot be followed and a missing path,
	 * each with its own message.
	 */
	static void requireExists(final String role, final Path path) {
		if (path == null || path.toString().trim().isEmpty()) throw new IllegalArgumentException(
			"the " + role + " path is empty: give an image, a folder of images or a CSV table");
		if (Files.exists(path)) return;
		if (Files.isSymbolicLink(path)) throw new IllegalArgumentException(role + " " + path +
			" is a symbolic link that cannot be followed (a link loop, or its target is " +
			"missing): give the real file or folder");
		final int bytes = path.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8)
			.length;
		if (bytes > FolderLimits.PATH_MAX) throw new IllegalArgumentException(role + " " +
			FolderLimits.shorten(path.toString()) + " is a path of " + bytes + " bytes, more " +
			"than the " + (FolderLimits.PATH_MAX + 1) + " the system allows in a path: move it " +
			"to a folder with a shorter path");
		throw new IllegalArgumentException(role + " " + path + " does not exist: check the path");
	}

	/**
	 * The reader checked against the target it must match, with the layout given for this
	 * input (checked against it) or one made from it (mask, binning).
	 */
	private static StackReader laidOut(final String role, final StackReader reader,
		final Reading how)
	{
		if (how.compatibleWith != null) StackSamples.checkCompatible(how.compatibleWith,
			reader.image());
		if (how.layout != null) {
			how.layout.checkFits(role, reader.image());
			return reader.with(how.layout);
		}
		return reader.select(how.mask == null ? null : ImageInput.open(how.mask, "mask"),
			null, how.bin);
	}

	private static void tableFacts(final Map<String, Object> facts, final Reading how,
		final int samples, final int features, final List<String> ignored,
		final int rowsRead, final int rowsDropped, final long cellsFilled)
	{
		if (!how.where.isEmpty()) facts.put("where", how.where);
		facts.put("kind", "table");
		facts.put("samples", samples);
		facts.put("features", features);
		facts.put("ignored_columns", ignored);
		facts.put("rows_read", rowsRead);
		facts.put("rows_dropped_for_missing_values", rowsDropped);
		facts.put("cells_filled", cellsFilled);
		facts.put("missing", how.missing.name().toLowerCase());
	}

	private static void imageFacts(final Map<String, Object> facts, final int samples,
		final int features, final ImagePlus imp, final FeatureLayout layout)
	{
		facts.put("samples", samples);
		facts.put("features", features);
		facts.put("width", imp.getWidth());
		facts.put("height", imp.getHeight());
		facts.put("bit_depth", imp.getBitDepth());
		facts.put("bin", layout.bin());
		facts.put("masked", layout.hasMask());
	}

	/** Reads a labels file: one class label per line, blank lines ignored. */
	public static List<String> readLabels(final Path file, final int samples) throws IOException {
		if (!Files.exists(file)) throw new IllegalArgumentException("--labels " + file +
			" does not exist: check the path");
		final List<String> labels = new ArrayList<>();
		final List<String> lines;
		try {
			lines = Files.readAllLines(file, StandardCharsets.UTF_8);
		}
		catch (final CharacterCodingException e) {
			throw new IllegalArgumentException("--labels " + file + " is not UTF-8 text (it " +
				"looks binary): give a text file with one class label per line");
		}
		for (String line : lines) {
			if (line.indexOf('\0') >= 0) throw new IllegalArgumentException("--labels " +
				file + " is not a text file (it holds binary data): give a text file with one " +
				"class label per line");
			if (line.startsWith("\uFEFF")) line = line.substring(1);
			if (!line.trim().isEmpty()) labels.add(line.trim());
		}
		if (labels.size() != samples) throw new IllegalArgumentException("--labels " + file +
			" has " + labels.size() + " labels but the target has " + samples +
			" samples: give one label per line, one per target sample, in sample order");
		return labels;
	}
}
