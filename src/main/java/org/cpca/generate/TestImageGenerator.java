package org.cpca.generate;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.ByteProcessor;

import org.cpca.core.AtomicFiles;
import org.cpca.core.Progress;
import org.cpca.image.TiffFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * Seeded synthetic test images for contrastive PCA: faint digits "0" and "1"
 * hidden in a grass-like texture (the <em>target</em>), and the same
 * texture without digits (the <em>background</em>).
 * <p>
 * <b>Texture model.</b> Every slice, target or background, is an independent draw of
 * the same random process:
 * <ol>
 * <li>a low-frequency "ground" field: the sum of a few plane sinusoids with random
 * orientation, phase and amplitude and a wavelength longer than the image;</li>
 * <li>several hundred grass blades (0.35 per pixel of the image and a margin around
 * it) composited over it in random order, each occluding
 * what is below it: a thin, slightly curved, tapering stroke growing roughly upwards
 * from a random base point, with random length, lean, bend, width and a random
 * brightness that may be lighter or darker than the ground (rasterised analytically
 * with soft, anti-aliased edges);</li>
 * <li>a random global contrast (gain) and brightness (offset) for the whole slice.</li>
 * </ol>
 * The global brightness, the ground field and the blades carry far more variance
 * than the digits, so ordinary PCA of the target finds texture. Because the background
 * shares every one of these sources of variation but has no digits, contrastive PCA
 * ({@code C_target - alpha C_background}) cancels them and finds the digits.
 * <p>
 * <b>Glyph model.</b> Each target slice gets a faint bright "0" or "1" added to the
 * texture (half of the slices each, in a seeded shuffled order). The glyph is made of
 * strokes of the generator's own, not of a font: a "0" is an ellipse (width 50–80 %
 * of its height); a "1" is a vertical stem, with a flag falling to the left from its
 * top (three times in four) and a foot (two times in five). The glyph then gets a
 * random slant (italic shear), height (45–60 % of the image height, centre line),
 * rotation (±15°), small offset from the centre and stroke width (2–3.5 pixels, round
 * caps and joins), is rasterised with anti-aliased edges by the generator itself, and
 * added with {@link Config#glyphContrast()} grey levels at full coverage.
 * <p>
 * <b>Texture bank.</b> A slice's texture costs in proportion to its pixels times its
 * height (the blades grow with the image), so from {@value #INDEPENDENT_LIMIT} pixels ×
 * height on ({@code 64 × 64} pixels) the slices by default share a bank of
 * {@value #DEFAULT_BANK} blade layers drawn once ({@link Config#textureBank()}): the same
 * blade model drawn on a torus (its edges meet, so a layer can be shifted cyclically
 * without a seam), and each slice takes one layer at a random cyclic shift, mirrored left
 * to right half of the time, under its own ground, gain and brightness. The texture
 * statistics are those of the independent draws (the blades' are stationary); only
 * blades, not ground or brightness, repeat between slices. Smaller images, among them
 * the bundled ones, draw every slice's texture anew, as {@link Config#withTextureBank
 * withTextureBank(0)} does at any size.
 * <p>
 * <b>Determinism.</b> Every random quantity comes from {@link java.util.Random}'s
 * sequence ({@link SeededRandom}), seeded
 * from {@link Config#seed()}, one per slice and purpose; all trigonometry uses
 * {@link StrictMath}, and everything else is arithmetic and square roots, which Java
 * specifies to the bit. No fonts, no Java2D rendering: the same configuration gives
 * bit-identical pixels on every Java platform and machine, headless or not.
 * <p>
 * The output is 8-bit: the values are rounded and clamped to 0..255.
 */
public final class TestImageGenerator {

	/** Label of every background slice. */
	public static final String BACKGROUND_LABEL = "background";

	/** File names written by {@link #write(Result, Path)}. */
	public static final String TARGET_FILE = "target.tif",
			BACKGROUND_FILE = "background.tif", LABELS_FILE = "target-labels.txt";

	// random-stream identifiers, mixed with the seed and the slice index
	private static final long STREAM_ORDER = 1, STREAM_TARGET_TEXTURE = 2,
			STREAM_GLYPH = 3, STREAM_BACKGROUND_TEXTURE = 4, STREAM_BANK = 5;

	/**
	 * Pixels × height up to which every slice draws its own texture by default (64³): the
	 * bundled 32 × 32 images, and every size up to 64 × 64, stay bit for bit as they were.
	 */
	static final long INDEPENDENT_LIMIT = 64L * 64 * 64;

	/** Blade layers in the bank of larger images. */
	static final int DEFAULT_BANK = 32;

	/** {@link Config#textureBank()} before it is resolved from the size. */
	private static final int AUTOMATIC_BANK = -1;

	// texture parameters, in grey levels before the per-slice gain
	private static final double MEAN_LEVEL = 118, BRIGHTNESS_SD = 18;
	private static final double GAIN_MIN = 0.7, GAIN_MAX = 1.3;
	private static final int GROUND_WAVES = 3;
	private static final double GROUND_SD = 14;
	private static final double MIN_WAVELENGTH = 1.2, MAX_WAVELENGTH = 4; // image sizes
	private static final double BLADES_PER_PIXEL = 0.35;
	private static final double BLADE_SD = 12;
	private static final double BLADE_MIN_LENGTH = 0.2, BLADE_MAX_LENGTH = 0.5; // heights
	private static final double BLADE_LEAN_SD = 0.3; // radians from vertical
	private static final double BLADE_MIN_WIDTH = 0.7, BLADE_MAX_WIDTH = 1.8; // pixels
	private static final int BLADE_SEGMENTS = 4;
	// added to a stroke's reach (its half width + 1/2 pixel), far above the rounding
	// of the span arithmetic, so that no pixel the stroke covers is left out
	private static final double REACH_MARGIN = 1e-6;

	// glyph parameters, in glyph units (the height of the centre line is 1) unless
	// said otherwise
	private static final double GLYPH_MIN_HEIGHT = 0.45, GLYPH_MAX_HEIGHT = 0.6; // of h
	private static final double GLYPH_MAX_ROTATION = 15; // degrees
	private static final double GLYPH_MAX_SLANT = 0.25; // shear: x shift per unit up
	private static final double GLYPH_MAX_OFFSET = 0.04; // of the width or height
	private static final double GLYPH_MIN_STROKE = 2, GLYPH_MAX_STROKE = 3.5; // pixels
	private static final double ZERO_MIN_WIDTH = 0.5, ZERO_MAX_WIDTH = 0.8;
	private static final int ELLIPSE_SEGMENTS = 48;
	private static final double ONE_FLAG_PROBABILITY = 0.75, ONE_FOOT_PROBABILITY =
		0.4;
	private static final double ONE_MIN_FLAG = 0.2, ONE_MAX_FLAG = 0.35;
	private static final double ONE_MIN_FLAG_ANGLE = 25, ONE_MAX_FLAG_ANGLE = 50; // degrees below horizontal
	private static final double ONE_MIN_FOOT = 0.35, ONE_MAX_FOOT = 0.55;

	private TestImageGenerator() {}

	/**
	 * What to generate. Immutable; start from {@link #defaults()} and change a field
	 * with a {@code with...} method.
	 */
	public static final class Config {

		/** Default seed. */
		public static final long DEFAULT_SEED = 20261122L;

		private final long seed;
		private final int targetSlices, backgroundSlices, width, height, textureBank;
		private final double glyphContrast;

		private Config(final long seed, final int targetSlices,
			final int backgroundSlices, final int width, final int height,
			final double glyphContrast, final int textureBank)
		{
			if (targetSlices < 1 || backgroundSlices < 1) throw new IllegalArgumentException(
				"need at least one target and one background slice, got " + targetSlices +
					" and " + backgroundSlices);
			if (width < 8 || height < 8) throw new IllegalArgumentException(
				"images must be at least 8x8 pixels, got " + width + "x" + height);
			if (!(glyphContrast >= 0 && glyphContrast <= 255))
				throw new IllegalArgumentException("glyph contrast must be in 0..255, got " +
					glyphContrast);
			this.textureBank = textureBank;
			this.seed = seed;
			this.targetSlices = targetSlices;
			this.backgroundSlices = backgroundSlices;
			this.width = width;
			this.height = height;
			this.glyphContrast = glyphContrast;
		}

		/**
		 * The configuration of the committed {@code test-images/}: seed 20261122, 300
		 * target and 300 background slices of 32×32 pixels, glyph contrast 26 grey
		 * levels.
		 */
		public static Config defaults() {
			return new Config(DEFAULT_SEED, 300, 300, 32, 32, 26, AUTOMATIC_BANK);
		}

		/** @return the seed of every random draw */
		public long seed() {
			return seed;
		}

		/** @return number of target slices (digits over texture) */
		public int targetSlices() {
			return targetSlices;
		}

		/** @return number of background slices (texture only) */
		public int backgroundSlices() {
			return backgroundSlices;
		}

		/** @return image width in pixels */
		public int width() {
			return width;
		}

		/** @return image height in pixels */
		public int height() {
			return height;
		}

		/** @return grey levels added where a glyph fully covers a pixel */
		public double glyphContrast() {
			return glyphContrast;
		}

		/** @return a copy with another seed */
		public Config withSeed(final long newSeed) {
			return new Config(newSeed, targetSlices, backgroundSlices, width, height,
				glyphContrast, textureBank);
		}

		/** @return a copy with other slice counts */
		public Config withSlices(final int target, final int background) {
			return new Config(seed, target, background, width, height, glyphContrast,
				textureBank);
		}

		/** @return a copy with another image size */
		public Config withSize(final int newWidth, final int newHeight) {
			return new Config(seed, targetSlices, backgroundSlices, newWidth, newHeight,
				glyphContrast, textureBank);
		}

		/** @return a copy with another glyph contrast */
		public Config withGlyphContrast(final double contrast) {
			return new Config(seed, targetSlices, backgroundSlices, width, height,
				contrast, textureBank);
		}

		/**
		 * @param layers 0: every slice draws its own texture; n &ge; 1: the slices share a
		 *          bank of n blade layers (see the class comment)
		 * @return a copy with that texture bank instead of the one chosen from the size
		 */
		public Config withTextureBank(final int layers) {
			if (layers < 0) throw new IllegalArgumentException("the texture bank needs 0 " +
				"(every slice its own texture) or more layers, got " + layers);
			return new Config(seed, targetSlices, backgroundSlices, width, height,
				glyphContrast, layers);
		}

		/**
		 * @return the blade layers the slices share: 0 (each slice draws its own texture)
		 *         up to {@value TestImageGenerator#INDEPENDENT_LIMIT} pixels × height
		 *         unless set, else {@value TestImageGenerator#DEFAULT_BANK}
		 */
		public int textureBank() {
			if (textureBank != AUTOMATIC_BANK) return textureBank;
			return (long) width * height * height <= INDEPENDENT_LIMIT ? 0 : DEFAULT_BANK;
		}

		@Override
		public boolean equals(final Object o) {
			if (!(o instanceof Config)) return false;
			final Config c = (Config) o;
			return seed == c.seed && targetSlices == c.targetSlices &&
				backgroundSlices == c.backgroundSlices && width == c.width &&
				height == c.height && Double.compare(glyphContrast, c.glyphContrast) == 0 &&
				textureBank() == c.textureBank();
		}

		@Override
		public int hashCode() {
			return Objects.hash(seed, targetSlices, backgroundSlices, width, height,
				glyphContrast, textureBank());
		}

		@Override
		public String toString() {
			return "seed=" + seed + ", target=" + targetSlices + ", background=" +
				backgroundSlices + ", size=" + width + "x" + height + ", glyphContrast=" +
				glyphContrast + (textureBank() == 0 ? "" : ", textureBank=" + textureBank());
		}
	}

	/** The generated stacks and the target's slice labels. */
	public static final class Result {

		private final ImagePlus target, background;
		private final List<String> targetLabels;

		private Result(final ImagePlus target, final ImagePlus background,
			final List<String> targetLabels)
		{
			this.target = target;
			this.background = background;
			this.targetLabels = Collections.unmodifiableList(new ArrayList<>(
				targetLabels));
		}

		/** @return 8-bit stack of digits over texture, slices labelled "0" or "1" */
		public ImagePlus target() {
			return target;
		}

		/** @return 8-bit stack of texture alone, slices labelled "background" */
		public ImagePlus background() {
			return background;
		}

		/** @return "0" or "1" for each target slice, in slice order */
		public List<String> targetLabels() {
			return targetLabels;
		}
	}

	/** Bytes per pixel of one slice in the making: its texture, glyph and distance field. */
	static final int WORKING_BYTES_PER_PIXEL = 64;

	/**
	 * The memory {@link #generate(Config, Progress)} needs at its peak: the finished 8-bit
	 * slices (one byte per pixel), the texture bank (a float per pixel and layer) and the
	 * slices in the making on each thread ({@value #WORKING_BYTES_PER_PIXEL} bytes per
	 * pixel: a few double images and the rasteriser's distance field).
	 */
	public static long bytesNeeded(final Config config) {
		final long pixels = (long) config.width() * config.height();
		final long threads = ForkJoinPool.getCommonPoolParallelism() + 1L;
		return pixels * (config.targetSlices() + config.backgroundSlices()) + pixels * 4L *
			config.textureBank() + pixels * WORKING_BYTES_PER_PIXEL * threads;
	}

	/** Generates a target and a background stack as described in the class comment. */
	public static Result generate(final Config config) {
		return generate(config, Progress.NONE);
	}

	/**
	 * Generates a target and a background stack as described in the class comment,
	 * telling {@code progress} how many slices are done (from the calling thread).
	 *
	 * @throws java.util.concurrent.CancellationException if {@code progress} is cancelled
	 */
	public static Result generate(final Config config, final Progress progress) {
		final int w = config.width(), h = config.height();
		final List<String> labels = shuffledLabels(config.targetSlices(), new SeededRandom(
			streamSeed(config.seed(), STREAM_ORDER, 0)));

		// every slice has its own random streams, so slices can be made in any order
		// (here in parallel, a few per thread at a time) and the result is the same
		final int nt = config.targetSlices(), nb = config.backgroundSlices();
		final float[][] bank = bank(config, progress);
		final byte[][] slices = new byte[nt + nb][];
		inBlocks(nt + nb, "slice", progress, k -> slices[k] = slice(config, bank, labels,
			k));

		final ImageStack target = new ImageStack(w, h);
		for (int i = 0; i < nt; i++)
			target.addSlice(labels.get(i), new ByteProcessor(w, h, slices[i]));
		final ImageStack background = new ImageStack(w, h);
		for (int i = 0; i < nb; i++)
			background.addSlice(BACKGROUND_LABEL, new ByteProcessor(w, h, slices[nt +
				i]));
		return new Result(new ImagePlus("target", target), new ImagePlus("background",
			background), labels);
	}

	/**
	 * Writes {@value #TARGET_FILE}, {@value #BACKGROUND_FILE} (ImageJ TIFF stacks) and
	 * {@value #LABELS_FILE} (one target label per line, in slice order) into
	 * {@code dir}, creating it if needed. Each file is written to a temporary file in
	 * {@code dir} first and then moved into place, so a reader never sees a partial file.
	 *
	 * @throws IOException if a file cannot be written
	 */
	public static void write(final Result result, final Path dir) throws IOException {
		write(result, dir, Progress.NONE);
	}

	/** As {@link #write(Result, Path)}, telling {@code progress} which file is written. */
	public static void write(final Result result, final Path dir, final Progress progress)
		throws IOException
	{
		Files.createDirectories(dir);
		progress.stage("writing " + TARGET_FILE, 0);
		TiffFiles.save(result.target(), dir.resolve(TARGET_FILE));
		progress.stage("writing " + BACKGROUND_FILE, 0.5);
		TiffFiles.save(result.background(), dir.resolve(BACKGROUND_FILE));
		progress.stage("writing " + LABELS_FILE, 1);
		final StringBuilder sb = new StringBuilder();
		for (final String label : result.targetLabels())
			sb.append(label).append('\n');
		AtomicFiles.write(dir.resolve(LABELS_FILE), tmp -> Files.write(tmp, sb.toString()
			.getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * The shared blade layers ({@link Config#textureBank()} of them, none when every slice
	 * draws its own), drawn in parallel on a torus, each from its own random stream.
	 */
	static float[][] bank(final Config config, final Progress progress) {
		final int n = config.textureBank(), w = config.width(), h = config.height();
		final float[][] bank = new float[n][];
		inBlocks(n, "texture bank, layer", progress, i -> bank[i] = toFloats(blades(w, h,
			new SeededRandom(streamSeed(config.seed(), STREAM_BANK, i)), true)));
		return bank;
	}

	/**
	 * Runs {@code work} on 0 … n − 1, in parallel blocks of a few per thread, telling
	 * {@code progress} after each block ("slice 8 of 600"), from the calling thread.
	 */
	private static void inBlocks(final int n, final String what, final Progress progress,
		final IntConsumer work)
	{
		final int block = 4 * ForkJoinPool.getCommonPoolParallelism();
		for (int from = 0; from < n; from += block) {
			progress.checkCancelled();
			IntStream.range(from, Math.min(n, from + block)).parallel().forEach(work);
			final int done = Math.min(n, from + block);
			progress.stage(what + " " + done + " of " + n, (double) done / n);
		}
	}

	/** Slice k of the target (k &lt; target slices) or of the background after it. */
	private static byte[] slice(final Config config, final float[][] bank,
		final List<String> labels, final int k)
	{
		final int w = config.width(), h = config.height(), nt = config.targetSlices();
		if (k >= nt) return toBytes(texture(w, h, bank, new SeededRandom(streamSeed(config
			.seed(), STREAM_BACKGROUND_TEXTURE, k - nt))));
		final double[] pixels = texture(w, h, bank, new SeededRandom(streamSeed(config
			.seed(), STREAM_TARGET_TEXTURE, k)));
		final double[] glyph = glyph(labels.get(k), w, h, new SeededRandom(streamSeed(
			config.seed(), STREAM_GLYPH, k)));
		for (int p = 0; p < pixels.length; p++)
			pixels[p] += config.glyphContrast() * glyph[p];
		return toBytes(pixels);
	}

	// -- labels --

	private static List<String> shuffledLabels(final int n, final SeededRandom random) {
		final String[] labels = new String[n];
		for (int i = 0; i < n; i++)
			labels[i] = i < n / 2 ? "0" : "1";
		// Fisher-Yates, written out so the order never depends on a library version
		for (int i = n - 1; i > 0; i--) {
			final int j = random.nextInt(i + 1);
			final String t = labels[i];
			labels[i] = labels[j];
			labels[j] = t;
		}
		final List<String> list = new ArrayList<>(n);
		Collections.addAll(list, labels);
		return list;
	}

	// -- texture --

	/**
	 * One slice of grass texture, in grey levels (not yet rounded or clamped): its own
	 * blades when the bank is empty, else a shifted, perhaps mirrored bank layer.
	 */
	private static double[] texture(final int w, final int h, final float[][] bank,
		final SeededRandom random)
	{
		final double[] ground = new double[w * h];
		final double size = Math.max(w, h);
		for (int k = 0; k < GROUND_WAVES; k++) {
			final double amplitude = GROUND_SD * Math.sqrt(2.0 / GROUND_WAVES) * random
				.nextGaussian();
			final double wavelength = size * uniform(random, MIN_WAVELENGTH,
				MAX_WAVELENGTH);
			final double angle = 2 * Math.PI * random.nextDouble();
			final double phase = 2 * Math.PI * random.nextDouble();
			final double fx = 2 * Math.PI * StrictMath.cos(angle) / wavelength;
			final double fy = 2 * Math.PI * StrictMath.sin(angle) / wavelength;
			if (bank.length == 0) wave(ground, w, h, amplitude, fx, fy, phase);
			else separableWave(ground, w, h, amplitude, fx, fy, phase);
		}
		final double[] blades = bank.length == 0 ? blades(w, h, random, false)
			: shifted(bank, w, h, random);
		final double gain = uniform(random, GAIN_MIN, GAIN_MAX);
		final double offset = MEAN_LEVEL + BRIGHTNESS_SD * random.nextGaussian();
		final double[] pixels = new double[w * h];
		for (int p = 0; p < pixels.length; p++)
			pixels[p] = offset + gain * (ground[p] + blades[p]);
		return pixels;
	}

	/** Adds a plane sinusoid, one StrictMath.sin per pixel (the independent textures'). */
	private static void wave(final double[] ground, final int w, final int h,
		final double amplitude, final double fx, final double fy, final double phase)
	{
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				ground[y * w + x] += amplitude * StrictMath.sin(fx * x + fy * y + phase);
	}

	/**
	 * Adds the same plane sinusoid from sin(a + b) = sin a cos b + cos a sin b with a the
	 * column's and b the row's part: w + h sines and cosines instead of w · h.
	 */
	private static void separableWave(final double[] ground, final int w, final int h,
		final double amplitude, final double fx, final double fy, final double phase)
	{
		final double[] sinX = new double[w], cosX = new double[w];
		for (int x = 0; x < w; x++) {
			sinX[x] = amplitude * StrictMath.sin(fx * x);
			cosX[x] = amplitude * StrictMath.cos(fx * x);
		}
		for (int y = 0; y < h; y++) {
			final double sinY = StrictMath.sin(fy * y + phase), cosY = StrictMath.cos(fy * y +
				phase);
			for (int x = 0, p = y * w; x < w; x++, p++)
				ground[p] += sinX[x] * cosY + cosX[x] * sinY;
		}
	}

	/**
	 * A layer of blades over 0: base points cover the image plus a margin, so that blades
	 * rooted below or beside the image reach into it; on a torus ({@code periodic}) they
	 * cover the image once, and a blade crossing an edge comes back at the opposite one.
	 */
	private static double[] blades(final int w, final int h, final SeededRandom random,
		final boolean periodic)
	{
		final double[] blades = new double[w * h];
		final double minLength = BLADE_MIN_LENGTH * h, maxLength = BLADE_MAX_LENGTH * h;
		final double x0 = periodic ? 0 : -maxLength / 2, x1 = periodic ? w : w +
			maxLength / 2;
		final double y0 = 0, y1 = periodic ? h : h + maxLength;
		final int count = (int) Math.round(BLADES_PER_PIXEL * (x1 - x0) * (y1 - y0));
		final NearestSegment nearest = new NearestSegment(w, h);
		for (int b = 0; b < count; b++) {
			final double bx = uniform(random, x0, x1), by = uniform(random, y0, y1);
			final double length = uniform(random, minLength, maxLength);
			final double lean = BLADE_LEAN_SD * random.nextGaussian();
			final double bend = 0.25 * length * random.nextGaussian();
			final double width = uniform(random, BLADE_MIN_WIDTH, BLADE_MAX_WIDTH);
			final double level = BLADE_SD * random.nextGaussian();
			final double tipShade = 0.3 * BLADE_SD * random.nextGaussian();
			blade(blades, w, h, bx, by, length, lean, bend, width, level, tipShade,
				nearest, periodic);
		}
		return blades;
	}

	/** A random bank layer at a random cyclic shift, mirrored left to right half the time. */
	private static double[] shifted(final float[][] bank, final int w, final int h,
		final SeededRandom random)
	{
		final float[] layer = bank[random.nextInt(bank.length)];
		final int sx = random.nextInt(w), sy = random.nextInt(h);
		final boolean mirror = random.nextDouble() < 0.5;
		final double[] out = new double[w * h];
		for (int y = 0; y < h; y++) {
			final int row = (y + sy) % h * w;
			for (int x = 0, p = y * w; x < w; x++, p++)
				out[p] = layer[row + (sx + (mirror ? w - 1 - x : x)) % w];
		}
		return out;
	}

	/**
	 * Composites one tapering, slightly curved blade over {@code layer}: pixels it
	 * covers take its brightness in proportion to the coverage.
	 */
	private static void blade(final double[] layer, final int w, final int h,
		final double bx, final double by, final double length, final double lean,
		final double bend, final double width, final double level,
		final double tipShade, final NearestSegment nearest, final boolean periodic)
	{
		// centre line: a quadratic curve from the base (t = 0) to the tip (t = 1)
		final double dx = StrictMath.sin(lean), dy = -StrictMath.cos(lean);
		final double px = -dy, py = dx; // perpendicular
		final int n = BLADE_SEGMENTS;
		final double[] cx = new double[n + 1], cy = new double[n + 1];
		for (int s = 0; s <= n; s++) {
			final double t = (double) s / n;
			cx[s] = bx + t * length * dx + t * t * bend * px;
			cy[s] = by + t * length * dy + t * t * bend * py;
		}
		// nearest point of the centre line for every pixel it may cover: only within
		// halfWidth + 1/2 <= width/2 + 1/2 of it
		final double reach = width / 2 + 0.5 + REACH_MARGIN;
		// on a torus, also the copies one image width or height away: the nearest of
		// them gives the distance on the torus (for blades shorter than the image)
		final int copies = periodic ? 1 : 0;
		double minX = cx[0], maxX = cx[0], minY = cy[0], maxY = cy[0];
		for (int s = 1; s <= n; s++) {
			minX = Math.min(minX, cx[s]);
			maxX = Math.max(maxX, cx[s]);
			minY = Math.min(minY, cy[s]);
			maxY = Math.max(maxY, cy[s]);
		}
		for (int ox = -copies; ox <= copies; ox++)
			for (int oy = -copies; oy <= copies; oy++) {
				if (maxX + ox * w + reach < 0 || minX + ox * w - reach > w || maxY + oy * h +
					reach < 0 || minY + oy * h - reach > h) continue; // a copy off the image
				for (int s = 0; s < n; s++)
					nearest.add(s, cx[s] + ox * w, cy[s] + oy * h, cx[s + 1] - cx[s], cy[s + 1] -
						cy[s], reach);
			}
		final double pad = width / 2 + 1;
		for (int i = 0; i < nearest.count(); i++) {
			final int p = nearest.pixel(i);
			final double best = nearest.distance2(p);
			if (best >= pad * pad) continue; // not covered
			final double t = (nearest.segment(p) + nearest.along(p)) / n;
			final double halfWidth = 0.5 * width * (1 - 0.8 * t);
			final double coverage = Math.max(0, Math.min(Math.min(1, 2 * halfWidth),
				halfWidth + 0.5 - Math.sqrt(best)));
			if (coverage <= 0) continue;
			layer[p] += coverage * (level + t * tipShade - layer[p]);
		}
		nearest.clear();
	}

	// -- glyphs --

	/**
	 * Renders a random "0" or "1" as an anti-aliased coverage mask in [0, 1]: the
	 * digit's centre line is built from a few seeded strokes in glyph units (height 1,
	 * y down), slanted, scaled, centred, rotated and moved to the image, and then
	 * stroked by {@link #strokeCoverage}.
	 */
	private static double[] glyph(final String digit, final int w, final int h,
		final SeededRandom random)
	{
		final double height = h * uniform(random, GLYPH_MIN_HEIGHT, GLYPH_MAX_HEIGHT);
		// degrees to radians by hand: Math.toRadians does not promise the same bits
		// on every Java version
		final double rotation = uniform(random, -GLYPH_MAX_ROTATION,
			GLYPH_MAX_ROTATION) * (StrictMath.PI / 180);
		final double slant = uniform(random, -GLYPH_MAX_SLANT / 2, GLYPH_MAX_SLANT);
		final double offsetX = w * uniform(random, -GLYPH_MAX_OFFSET,
			GLYPH_MAX_OFFSET);
		final double offsetY = h * uniform(random, -GLYPH_MAX_OFFSET,
			GLYPH_MAX_OFFSET);
		final double strokeWidth = uniform(random, GLYPH_MIN_STROKE,
			GLYPH_MAX_STROKE);
		final List<double[]> strokes = "0".equals(digit) ? zero(random) : one(random);

		// slant and scale, then centre the bounding box of the centre line on the
		// origin (as a typesetter centres a glyph's box), rotate and move
		double minX = Double.MAX_VALUE, maxX = -Double.MAX_VALUE;
		double minY = Double.MAX_VALUE, maxY = -Double.MAX_VALUE;
		for (final double[] s : strokes) {
			for (int i = 0; i < s.length; i += 2) {
				final double u = s[i], v = s[i + 1];
				s[i] = height * (u - slant * v);
				s[i + 1] = height * v;
				minX = Math.min(minX, s[i]);
				maxX = Math.max(maxX, s[i]);
				minY = Math.min(minY, s[i + 1]);
				maxY = Math.max(maxY, s[i + 1]);
			}
		}
		final double mx = (minX + maxX) / 2, my = (minY + maxY) / 2;
		final double sin = StrictMath.sin(rotation), cos = StrictMath.cos(rotation);
		final double cx = w / 2.0 + offsetX, cy = h / 2.0 + offsetY;
		for (final double[] s : strokes) {
			for (int i = 0; i < s.length; i += 2) {
				final double x = s[i] - mx, y = s[i + 1] - my;
				s[i] = cx + cos * x - sin * y;
				s[i + 1] = cy + sin * x + cos * y;
			}
		}
		return strokeCoverage(strokes, strokeWidth, w, h);
	}

	/**
	 * The centre line of a "0": one closed ellipse, its width a random fraction of
	 * its height, as a polygon of {@value #ELLIPSE_SEGMENTS} chords.
	 */
	private static List<double[]> zero(final SeededRandom random) {
		final double halfWidth = 0.5 * uniform(random, ZERO_MIN_WIDTH, ZERO_MAX_WIDTH);
		final int n = ELLIPSE_SEGMENTS;
		final double[] ring = new double[2 * (n + 1)];
		for (int i = 0; i <= n; i++) {
			final double t = 2 * StrictMath.PI * (i % n) / n;
			ring[2 * i] = halfWidth * StrictMath.cos(t);
			ring[2 * i + 1] = 0.5 * StrictMath.sin(t);
		}
		final List<double[]> strokes = new ArrayList<>(1);
		strokes.add(ring);
		return strokes;
	}

	/**
	 * The centre line of a "1": a vertical stem, most often with a flag falling to
	 * the left from its top, sometimes standing on a foot (a short horizontal bar).
	 */
	private static List<double[]> one(final SeededRandom random) {
		// every draw is made whether or not its part is drawn, so each part's
		// randomness does not depend on the others
		final boolean flag = random.nextDouble() < ONE_FLAG_PROBABILITY;
		final double flagLength = uniform(random, ONE_MIN_FLAG, ONE_MAX_FLAG);
		final double flagAngle = uniform(random, ONE_MIN_FLAG_ANGLE,
			ONE_MAX_FLAG_ANGLE) * (StrictMath.PI / 180);
		final boolean foot = random.nextDouble() < ONE_FOOT_PROBABILITY;
		final double footHalf = 0.5 * uniform(random, ONE_MIN_FOOT, ONE_MAX_FOOT);
		final List<double[]> strokes = new ArrayList<>(3);
		strokes.add(new double[] { 0, -0.5, 0, 0.5 });
		if (flag) strokes.add(new double[] { 0, -0.5, -flagLength * StrictMath.cos(
			flagAngle), -0.5 + flagLength * StrictMath.sin(flagAngle) });
		if (foot) strokes.add(new double[] { -footHalf, 0.5, footHalf, 0.5 });
		return strokes;
	}

	/**
	 * Rasterises polylines (each an array x0, y0, x1, y1, ... in pixels) stroked with
	 * round caps and joins: a pixel's coverage is that of a pixel-wide box across the
	 * stroke's edge at the pixel centre's distance from the nearest centre line,
	 * {@code clamp(width / 2 + 1/2 - distance, 0, 1)}. Only additions,
	 * multiplications, divisions and square roots, all exactly specified in Java, so
	 * the mask is the same on every Java platform.
	 */
	private static double[] strokeCoverage(final List<double[]> strokes,
		final double width, final int w, final int h)
	{
		// each pixel's distance to the nearest segment of any stroke (the minimum does
		// not depend on the order); beyond width/2 + 1/2 the coverage is 0
		final double half = width / 2;
		final double reach = half + 0.5 + REACH_MARGIN;
		final NearestSegment nearest = new NearestSegment(w, h);
		for (final double[] s : strokes)
			for (int i = 0; i + 3 < s.length; i += 2)
				nearest.add(0, s[i], s[i + 1], s[i + 2] - s[i], s[i + 3] - s[i + 1], reach);
		final double[] mask = new double[w * h];
		for (int i = 0; i < nearest.count(); i++) {
			final int p = nearest.pixel(i);
			mask[p] = Math.max(0, Math.min(1, half + 0.5 - Math.sqrt(nearest.distance2(
				p))));
		}
		return mask;
	}

	// -- helpers --

	private static float[] toFloats(final double[] values) {
		final float[] floats = new float[values.length];
		for (int i = 0; i < floats.length; i++)
			floats[i] = (float) values[i];
		return floats;
	}

	private static byte[] toBytes(final double[] pixels) {
		final byte[] bytes = new byte[pixels.length];
		for (int p = 0; p < bytes.length; p++) {
			final long v = Math.round(pixels[p]);
			bytes[p] = (byte) Math.max(0, Math.min(255, v));
		}
		return bytes;
	}

	private static double uniform(final SeededRandom random, final double a,
		final double b)
	{
		return a + (b - a) * random.nextDouble();
	}

	/** A well-mixed seed for one random stream (SplitMix64 finaliser). */
	private static long streamSeed(final long seed, final long stream,
		final long index)
	{
		long z = seed + 0x9E3779B97F4A7C15L * (stream * 0x100000000L + index + 1);
		z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
		z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
		return z ^ (z >>> 31);
	}
}
