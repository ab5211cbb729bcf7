package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.ByteProcessor;
import ij.process.ColorProcessor;
import ij.process.FloatProcessor;
import ij.process.ShortProcessor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table of docs/bad-inputs.md, case by case: each bad input, given to {@code cpca} on
 * real files, gives exit code 1 or 2 and one line on standard error that names the
 * problem (the expected words) — never a stack trace, never a silent result. The table in
 * the docs and the cases here are checked to be the same.
 */
class BadInputsTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	/** One bad input: an id (as in the docs), the command line, and words of the message. */
	static final class Case {

		final String id;
		final Function<Path, String[]> args;
		final String expected;

		Case(final String id, final String expected, final Function<Path, String[]> args) {
			this.id = id;
			this.args = args;
			this.expected = expected;
		}

		@Override
		public String toString() {
			return id;
		}
	}

	// -- files --------------------------------------------------------------------------

	static Path write(final Path p, final String text) {
		try {
			Files.createDirectories(p.getParent());
			return Files.write(p, text.getBytes(StandardCharsets.UTF_8));
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	static Path bytes(final Path p, final byte[] b) {
		try {
			Files.createDirectories(p.getParent());
			return Files.write(p, b);
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** A table of random numbers, header x1..xd. */
	static Path table(final Path p, final int rows, final int cols, final long seed) {
		final Random r = new Random(seed);
		final StringBuilder sb = new StringBuilder();
		for (int c = 1; c <= cols; c++)
			sb.append(c == 1 ? "" : ",").append("x").append(c);
		sb.append('\n');
		for (int i = 0; i < rows; i++) {
			for (int c = 0; c < cols; c++)
				sb.append(c == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.4f", r
					.nextGaussian()));
			sb.append('\n');
		}
		return write(p, sb.toString());
	}

	/** A random stack: type 8, 16, 32 or 24 (RGB). */
	static Path stack(final Path p, final int n, final int w, final int h, final int type,
		final long seed)
	{
		final Random r = new Random(seed);
		final ImageStack s = new ImageStack(w, h);
		for (int i = 0; i < n; i++) {
			final float[] px = new float[w * h];
			for (int j = 0; j < px.length; j++)
				px[j] = 50 + 40 * (float) r.nextGaussian();
			final FloatProcessor fp = new FloatProcessor(w, h, px);
			s.addSlice(type == 8 ? fp.convertToByteProcessor(false) : type == 16 ? fp
				.convertToShortProcessor(false) : type == 24 ? fp.convertToColorProcessor() : fp);
		}
		return save(p, new ImagePlus(p.getFileName().toString(), s));
	}

	static Path save(final Path p, final ImagePlus imp) {
		try {
			Files.createDirectories(p.getParent());
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
		final FileSaver fs = new FileSaver(imp);
		assertTrue(imp.getStackSize() > 1 ? fs.saveAsTiffStack(p.toString()) : fs.saveAsTiff(p
			.toString()));
		return p;
	}

	/** A hand-made single-strip little-endian TIFF (for headers ImageJ does not write). */
	static byte[] tiff(final int w, final int h, final int bits, final int sampleFormat,
		final String description, final int dataBytes)
	{
		final byte[] desc = description == null ? new byte[0] : (description + "\0").getBytes(
			StandardCharsets.US_ASCII);
		final int tags = description == null ? 10 : 11;
		final int ifd = 8, descAt = ifd + 2 + tags * 12 + 4, dataAt = descAt + desc.length;
		final ByteBuffer b = ByteBuffer.allocate(dataAt + dataBytes).order(
			ByteOrder.LITTLE_ENDIAN);
		b.put((byte) 'I').put((byte) 'I').putShort((short) 42).putInt(ifd);
		b.putShort((short) tags);
		tag(b, 256, 4, w);
		tag(b, 257, 4, h);
		tag(b, 258, 3, bits);
		tag(b, 259, 3, 1);
		tag(b, 262, 3, 1);
		if (description != null) {
			b.putShort((short) 270).putShort((short) 2).putInt(desc.length).putInt(descAt);
		}
		tag(b, 273, 4, dataAt);
		tag(b, 277, 3, 1);
		tag(b, 278, 4, h);
		tag(b, 279, 4, (int) Math.min(Integer.MAX_VALUE, (long) w * h * bits / 8));
		tag(b, 339, 3, sampleFormat);
		b.putInt(0);
		b.put(desc);
		return b.array();
	}

	private static void tag(final ByteBuffer b, final int tag, final int type,
		final int value)
	{
		b.putShort((short) tag).putShort((short) type).putInt(1);
		if (type == 3) b.putShort((short) value).putShort((short) 0);
		else b.putInt(value);
	}

	static String[] fit(final Path d, final String... more) {
		final List<String> a = new ArrayList<>(List.of("fit"));
		a.addAll(List.of(more));
		a.add("--out");
		a.add(d.resolve("out").toString());
		return a.toArray(new String[0]);
	}

	static String s(final Path p) {
		return p.toString();
	}

	/** A good table target and background, for cases that vary one thing. */
	static String[] tables(final Path d, final String... more) {
		final List<String> a = new ArrayList<>(List.of("--target", s(table(d.resolve("t.csv"),
			30, 4, 1)), "--background", s(table(d.resolve("b.csv"), 30, 4, 2))));
		a.addAll(List.of(more));
		return fit(d, a.toArray(new String[0]));
	}

	/** A good image target and background, for cases that vary one thing. */
	static String[] images(final Path d, final String... more) {
		final List<String> a = new ArrayList<>(List.of("--target", s(stack(d.resolve("t.tif"),
			12, 8, 8, 32, 1)), "--background", s(stack(d.resolve("b.tif"), 12, 8, 8, 32, 2))));
		a.addAll(List.of(more));
		return fit(d, a.toArray(new String[0]));
	}

	static String[] tableTarget(final Path d, final Path target, final String... more) {
		final List<String> a = new ArrayList<>(List.of("--target", s(target), "--background",
			s(table(d.resolve("b.csv"), 30, 4, 2))));
		a.addAll(List.of(more));
		return fit(d, a.toArray(new String[0]));
	}

	static String[] imageTarget(final Path d, final Path target, final String... more) {
		final List<String> a = new ArrayList<>(List.of("--target", s(target), "--background",
			s(stack(d.resolve("b.tif"), 12, 8, 8, 32, 2))));
		a.addAll(List.of(more));
		return fit(d, a.toArray(new String[0]));
	}

	static Path truncated(final Path p, final long keep) {
		try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE)) {
			c.truncate(keep);
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
		return p;
	}

	static Path hyperstack(final Path p, final int c, final int z, final int t) {
		return hyperstack(p, c, z, t, 3);
	}

	/** A c × z × t hyperstack of 8 × 8 Gaussian noise planes drawn with the given seed. */
	static Path hyperstack(final Path p, final int c, final int z, final int t,
		final long seed)
	{
		final ImageStack s = new ImageStack(8, 8);
		final Random r = new Random(seed);
		for (int i = 0; i < c * z * t; i++) {
			final float[] px = new float[64];
			for (int j = 0; j < 64; j++)
				px[j] = (float) r.nextGaussian();
			s.addSlice(new FloatProcessor(8, 8, px));
		}
		final ImagePlus imp = new ImagePlus("h", s);
		imp.setDimensions(c, z, t);
		imp.setOpenAsHyperStack(true);
		return save(p, imp);
	}

	// -- the cases ----------------------------------------------------------------------

	static List<Case> cases() {
		final List<Case> k = new ArrayList<>();
		// tables
		k.add(new Case("csv-duplicate-column", "are both named 'x1'", d -> tableTarget(d,
			write(d.resolve("dup.csv"), "x1,x1,x2,x2\n1,2,3,4\n5,6,7,9\n2,2,2,1\n"))));
		k.add(new Case("csv-empty-column-name", "has no name", d -> tableTarget(d, write(d
			.resolve("e.csv"), ",x1,x2\n1,2,3\n4,5,7\n1,1,2\n"))));
		k.add(new Case("csv-trailing-separator", "has no name", d -> tableTarget(d, write(d
			.resolve("e.csv"), "x1,x2,\n1,2,\n4,5,\n1,1,\n"))));
		k.add(new Case("csv-mixed-decimal-marks", "mixes decimal marks", d -> tableTarget(d,
			write(d.resolve("m.csv"), "x1;x2;x3;x4\n1,5;2.5;1;2\n2,5;3,5;1;1\n1;1;1;2\n"))));
		k.add(new Case("csv-decimal-comma-with-comma-separator",
			"both as separator and as decimal mark", d -> tableTarget(d, write(d.resolve(
				"c.csv"), "x1,x2\n1,5,2,5\n3,5,4,5\n"))));
		k.add(new Case("csv-float-overflow", "beyond the range of the 32-bit floats", d -> tableTarget(d,
			write(d.resolve("o.csv"), "x1,x2,x3,x4\n1e308,1,2,3\n1,2,3,4\n2,2,3,1\n"))));
		k.add(new Case("csv-infinite-cell", "not a finite number", d -> tableTarget(d, write(d
			.resolve("i.csv"), "x1,x2,x3,x4\nInfinity,1,2,3\n1,2,3,4\n2,2,3,1\n"))));
		k.add(new Case("csv-empty-file", "is empty", d -> tableTarget(d, write(d.resolve(
			"empty.csv"), ""))));
		k.add(new Case("csv-header-only", "has a header but no data rows", d -> tableTarget(d,
			write(d.resolve("h.csv"), "x1,x2,x3,x4\n"))));
		k.add(new Case("csv-ragged-row", "row 3 has 3 fields but the header has 4", d -> tableTarget(
			d, write(d.resolve("r.csv"), "x1,x2,x3,x4\n1,2,3,4\n1,2,3\n"))));
		k.add(new Case("csv-no-numeric-column", "has no numeric column", d -> tableTarget(d,
			write(d.resolve("n.csv"), "name,kind\na,b\nc,d\n"))));
		k.add(new Case("csv-binary", "binary data", d -> tableTarget(d, bytes(d.resolve(
			"bin.csv"), new byte[] { 'x', ',', 'y', '\n', 0, 1, 2, ',', 3, '\n' }))));
		k.add(new Case("csv-missing-label-column", "has no column 'group'", d -> tables(d,
			"--label-column", "group")));
		k.add(new Case("csv-where-no-match", "no row matches x1=999", d -> tables(d,
			"--target-where", "x1=999")));
		k.add(new Case("csv-where-not-column-value", "is not COLUMN=VALUE", d -> tables(d,
			"--target-where", "x1")));
		k.add(new Case("csv-all-rows-dropped", "--missing mean", d -> tableTarget(d, write(d
			.resolve("na.csv"), "x1,x2,x3,x4\n1,,2,3\nNA,1,2,3\n1,2,NaN,3\n"))));
		k.add(new Case("csv-background-other-columns", "has no column 'x4'", d -> fit(d,
			"--target", s(table(d.resolve("t.csv"), 30, 4, 1)), "--background", s(table(d
				.resolve("b.csv"), 30, 3, 2)))));
		k.add(new Case("table-and-image", "give both as images or both as tables", d -> fit(d,
			"--target", s(table(d.resolve("t.csv"), 30, 4, 1)), "--background", s(stack(d
				.resolve("b.tif"), 12, 8, 8, 32, 2)))));
		k.add(new Case("csv-one-row", "has only 1 sample", d -> tableTarget(d, write(d.resolve(
			"one.csv"), "x1,x2,x3,x4\n1,2,3,4\n"))));
		k.add(new Case("csv-constant", "is constant", d -> tableTarget(d, write(d.resolve(
			"c.csv"), "x1,x2,x3,x4\n1,2,3,4\n1,2,3,4\n1,2,3,4\n"))));
		// tables: RFC 4180 quotes and text encodings (issue 32)
		k.add(new Case("csv-unclosed-quote", "row 3 opens a quoted field", d -> tableTarget(d,
			write(d.resolve("q.csv"), "x1,x2,x3,x4\n1,2,3,4\n5,\"6,7,8\n2,2,3,1\n"))));
		k.add(new Case("csv-number-with-comma", "row 3 holds '1,234' in column x1", d -> tableTarget(
			d, write(d.resolve("n.csv"), "x1,x2,x3,x4\n1,2,3,4\n\"1,234\",6,7,8\n2,2,3,1\n"))));
		k.add(new Case("csv-latin-1", "is not UTF-8 text: row 1 has the byte 0xE9", d -> tableTarget(
			d, bytes(d.resolve("l.csv"), "x1,temp\u00e9rature,x3,x4\n1,2,3,4\n5,6,7,8\n2,2,3,1\n"
				.getBytes(StandardCharsets.ISO_8859_1)))));
		k.add(new Case("csv-utf-16", "is UTF-16 text (byte-order mark FE FF)", d -> tableTarget(d,
			bytes(d.resolve("u.csv"), "x1,x2,x3,x4\n1,2,3,4\n5,6,7,8\n2,2,3,1\n".getBytes(
				StandardCharsets.UTF_16)))));
		k.add(new Case("online-missing-model", "for online cPCA* use --missing drop, mean or zero",
			d -> tables(d, "--method", "online", "--missing", "model")));
		k.add(new Case("beta-with-cpca", "--beta applies to --method star and online only",
			d -> tables(d, "--beta", "0.5")));
		k.add(new Case("gcpca-shuffles-huge", "use fewer shuffles (--shuffles", d -> tables(d,
			"--method", "gcpca", "--shuffles", "2000000000")));
		// images
		k.add(new Case("tiff-truncated", "is truncated or damaged", d -> imageTarget(d,
			truncated(stack(d.resolve("t.tif"), 20, 8, 8, 32, 1), 20 * 64 * 4 / 2))));
		k.add(new Case("tiff-header-claims-too-much", "is truncated or damaged", d -> imageTarget(
			d, bytes(d.resolve("huge.tif"), tiff(20000, 20000, 8, 1,
				"ImageJ=1.54p\nimages=1000\nslices=1000\n", 4000)))));
		k.add(new Case("tiff-not-an-image", "cannot read", d -> imageTarget(d, write(d.resolve(
			"fake.tif"), "this is not a TIFF at all\n"))));
		k.add(new Case("tiff-64-bit-float", "stores 64-bit floating-point pixels", d -> imageTarget(
			d, bytes(d.resolve("f64.tif"), tiff(8, 8, 64, 3, null, 8 * 64)))));
		k.add(new Case("image-rgb", "is RGB", d -> imageTarget(d, stack(d.resolve("rgb.tif"),
			12, 8, 8, 24, 1))));
		k.add(new Case("image-size-mismatch", "the same width × height", d -> imageTarget(d,
			stack(d.resolve("t.tif"), 12, 9, 8, 32, 1))));
		k.add(new Case("background-same-as-target", "holds the same values as target", d -> {
			final String t = s(stack(d.resolve("t.tif"), 12, 8, 8, 32, 1));
			return fit(d, "--target", t, "--background", t);
		}));
		k.add(new Case("online-background-same-as-target", "holds the same values as target",
			d -> {
				final String t = s(stack(d.resolve("t.tif"), 12, 8, 8, 32, 1));
				return fit(d, "--method", "online", "--target", t, "--background", t);
			}));
		k.add(new Case("image-type-mismatch", "convert both to the same type", d -> imageTarget(
			d, stack(d.resolve("t.tif"), 12, 8, 8, 16, 1))));
		k.add(new Case("image-nan-pixel", "missing value (NaN)", d -> {
			final FloatProcessor fp = new FloatProcessor(8, 8);
			fp.setf(3, Float.NaN);
			final ImageStack st = new ImageStack(8, 8);
			st.addSlice(fp);
			st.addSlice(new FloatProcessor(8, 8, new float[64]));
			st.addSlice(new FloatProcessor(8, 8, new float[64]));
			return imageTarget(d, save(d.resolve("nan.tif"), new ImagePlus("nan", st)));
		}));
		k.add(new Case("image-single-slice", "has only 1 sample", d -> imageTarget(d, stack(d
			.resolve("one.tif"), 1, 8, 8, 32, 1))));
		k.add(new Case("mask-size-mismatch", "the mask must have the same width × height", d -> images(d,
			"--mask", s(save(d.resolve("m.tif"), new ImagePlus("m", new ByteProcessor(5, 5)))))));
		k.add(new Case("mask-empty", "selects no pixel", d -> images(d, "--mask", s(save(d
			.resolve("m.tif"), new ImagePlus("m", new ByteProcessor(8, 8)))))));
		k.add(new Case("mask-several-slices", "give a single-slice mask", d -> images(d,
			"--mask", s(stack(d.resolve("m.tif"), 3, 8, 8, 8, 5)))));
		k.add(new Case("hyperstack-one-position", "has a single sample", d -> imageTarget(d,
			hyperstack(d.resolve("h.tif"), 3, 1, 1))));
		k.add(new Case("axes-unknown", "is not known: use one of auto, planes", d -> images(d,
			"--axes", "rows")));
		k.add(new Case("axes-missing-channel", "has 2 channels: use c1 … c2", d -> imageTarget(
			d, hyperstack(d.resolve("h.tif"), 2, 3, 2), "--axes", "c3")));
		k.add(new Case("hyperstack-channels-plain-background",
			"target has 2 channels of 8×8 (read side by side as features", d -> imageTarget(d,
				hyperstack(d.resolve("h.tif"), 2, 12, 1))));
		// folders and paths
		k.add(new Case("folder-no-image-only-text", "has no images (it holds readme.txt)", d -> {
			write(d.resolve("f/readme.txt"), "notes");
			return imageTarget(d, d.resolve("f"));
		}));
		k.add(new Case("folder-empty", "is empty", d -> {
			try {
				return imageTarget(d, Files.createDirectories(d.resolve("empty")));
			}
			catch (final IOException e) {
				throw new UncheckedIOException(e);
			}
		}));
		k.add(new Case("folder-no-image", "has no image ImageJ can read", d -> {
			write(d.resolve("f/readme.md"), "notes");
			write(d.resolve("f/data.bin"), "xyz");
			return imageTarget(d, d.resolve("f"));
		}));
		k.add(new Case("folder-mixed-sizes", "could be stacked", d -> {
			stack(d.resolve("f/a1.tif"), 1, 8, 8, 32, 1);
			stack(d.resolve("f/a2.tif"), 1, 8, 8, 32, 2);
			stack(d.resolve("f/a3.tif"), 1, 9, 8, 32, 3);
			return imageTarget(d, d.resolve("f"));
		}));
		k.add(new Case("path-missing", "does not exist: check the path", d -> imageTarget(d, d
			.resolve("nowhere.tif"))));
		k.add(new Case("path-empty", "the target path is empty", d -> fit(d, "--target", "",
			"--background", s(table(d.resolve("b.csv"), 30, 4, 2)))));
		k.add(new Case("path-symlink-loop", "symbolic link that cannot be followed", d -> {
			try {
				final Path loop = d.resolve("loop.tif");
				Files.createSymbolicLink(loop, loop.getFileName());
				return imageTarget(d, loop);
			}
			catch (final IOException e) {
				throw new UncheckedIOException(e);
			}
		}));
		// labels
		k.add(new Case("labels-binary", "--labels", d -> images(d, "--labels", s(bytes(d.resolve(
			"labels.txt"), new byte[] { (byte) 0xff, (byte) 0xfe, 0, 1, (byte) 0xc3 })))));
		k.add(new Case("labels-wrong-count", "has 3 labels but the target has 12 samples", d -> images(
			d, "--labels", s(write(d.resolve("labels.txt"), "a\nb\na\n")))));
		k.add(new Case("labels-missing-file", "does not exist", d -> images(d, "--labels", s(d
			.resolve("nolabels.txt")))));
		// settings
		k.add(new Case("components-too-many", "components were requested", d -> tables(d,
			"--components", "9")));
		k.add(new Case("alpha-too-large", "is too large for these data", d -> tables(d,
			"--alpha", "1e308")));
		k.add(new Case("alpha-range-too-large", "the α range reaches 1e+308", d -> tables(d,
			"--alpha-range", "1e300,1e308")));
		k.add(new Case("components-zero", "out of range", d -> tables(d, "--components",
			"0")));
		k.add(new Case("components-not-whole", "2.7", d -> tables(d, "--components", "2.7")));
		k.add(new Case("method-unknown", "cpcx", d -> tables(d, "--method", "cpcx")));
		k.add(new Case("kernel-alpha-inf", "inf is not defined for kernel cPCA", d -> tables(d,
			"--method", "kernel", "--alpha", "inf")));
		k.add(new Case("kernel-too-many-landmarks", "landmarks were asked for", d -> tables(d,
			"--method", "kernel", "--landmarks", "500")));
		k.add(new Case("bin-too-large", "bin", d -> images(d, "--bin", "9")));
		// memory
		k.add(new Case("memory-kernel-all-landmarks", "not enough memory for exact kernel cPCA",
			d -> fit(d, "--target", s(table(d.resolve("t.csv"), 30000, 2, 1)), "--background",
				s(table(d.resolve("b.csv"), 30000, 2, 2)), "--method", "kernel", "--landmarks",
				"all", "--alpha", "1")));
		k.add(new Case("memory-generate-huge", "not enough memory for generating", d -> new String[] {
			"generate", "--size", "100000", "--out", s(d.resolve("gen")) }));
		// apply
		k.add(new Case("apply-model-missing", "does not exist", d -> new String[] { "apply",
			"--model", s(d.resolve("none.json")), "--input", s(table(d.resolve("t.csv"), 5, 4,
				1)), "--out", s(d.resolve("out")) }));
		k.add(new Case("apply-model-not-json", "model", d -> new String[] { "apply", "--model",
			s(write(d.resolve("m.json"), "not json")), "--input", s(table(d.resolve("t.csv"), 5,
				4, 1)), "--out", s(d.resolve("out")) }));
		return k;
	}

	static Stream<Case> all() {
		return cases().stream();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("all")
	void oneClearLine(final Case c) {
		final String[] args = c.args.apply(dir);
		final Object[] r = CliTest.cpca(args);
		final int code = (Integer) r[0];
		final String err = ((String) r[2]).trim();
		record(c.id, err);
		assertNotEquals(0, code, c.id + ": accepted; stdout: " + r[1]);
		assertFalse(err.contains("\n"), c.id + ": more than one line:\n" + err);
		assertTrue(err.startsWith("cpca: "), c.id + ": " + err);
		assertFalse(err.contains("Exception") || err.contains("\tat ") || err.contains(
			"unexpected error"), c.id + ": " + err);
		assertTrue(err.contains(c.expected), c.id + ": expected '" + c.expected + "' in: " +
			err);
		assertFalse(Files.exists(dir.resolve("out")), c.id + ": left an output folder");
		// the docs show this very message (paths shortened, the free memory varies)
		final String documented = docRows().get(c.id);
		assertEquals(normal(err.replace(dir.toString() + java.io.File.separator, "")),
			normal(documented), c.id + ": docs/bad-inputs.md shows another message");
	}

	private static String normal(final String message) {
		return message == null ? null : message.replaceAll(
			"only [0-9.]+ (bytes|KB|MB|GB|TB) is available", "only … is available")
			.replaceAll("seed=[0-9]+, ", "");
	}

	/** The docs' table: case id → message (unescaped). */
	static java.util.Map<String, String> docRows() {
		final String doc;
		try {
			doc = new String(Files.readAllBytes(Paths.get("docs", "bad-inputs.md")),
				StandardCharsets.UTF_8);
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
		final java.util.Map<String, String> rows = new java.util.LinkedHashMap<>();
		final Matcher m = Pattern.compile("(?m)^\\| `([a-z0-9-]+)` \\| .*? \\| (cpca: .*) \\|$")
			.matcher(doc);
		while (m.find())
			rows.put(m.group(1), m.group(2).replace("\\|", "|"));
		return rows;
	}

	/** Keeps the messages in target/ (to review them and the docs' table side by side). */
	private static synchronized void record(final String id, final String message) {
		try {
			Files.write(Paths.get("target", "bad-inputs-messages.tsv"), (id + "\t" + message
				.replace('\n', ' ') + "\n").getBytes(StandardCharsets.UTF_8),
				StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
		catch (final IOException e) {
			// only a record for reviewing; the test's assertions are what count
		}
	}

	/** The docs list exactly these cases (and at least 40). */
	@Test
	void docsTableListsEveryCase() throws IOException {
		final Set<String> documented = new LinkedHashSet<>(docRows().keySet());
		final Set<String> tested = new LinkedHashSet<>();
		for (final Case c : cases())
			assertTrue(tested.add(c.id), "case id used twice: " + c.id);
		assertTrue(tested.size() >= 40, "only " + tested.size() + " cases");
		assertEquals(tested, documented);
	}
}
