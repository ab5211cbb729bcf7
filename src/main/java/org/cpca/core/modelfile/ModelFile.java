package org.cpca.core.modelfile;

import org.cpca.core.AtomicFiles;
import org.cpca.core.Memory;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.kernel.KernelCpcaModel;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Method;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import org.cpca.core.pcpca.PcpcaModel;

/**
 * Reads and writes fitted models as versioned JSON ("model.json").
 * <p>
 * Layout (version 1): {@code {"format": "contrastive-pca-model", "version": 1, "method",
 * "alpha" (a number, "inf", or null), "parameters" (the method's own settings, e.g.
 * β or λ_j: numbers or arrays), "components" (k arrays of d numbers), "eigenvalues",
 * "target_variance", "background_variance" (null entries when unknown),
 * "target_total_variance", "mean", "scale" (null unless standardised), "whiten",
 * "diagnostics", "attributes"}}. Everything is validated on load (format, version,
 * shapes, finiteness), and a file that fails names the problem. Files are written
 * atomically (a temporary file in the same folder, then a move).
 * <p>
 * Kernel cPCA models (method "kernel", {@link KernelCpcaModel}) have no "components";
 * instead they hold what {@link KernelCpcaModel#transform} needs: "support" (S arrays of d
 * numbers, the raw support samples: the training samples on the exact path, the landmarks
 * on the Nyström path), "coefficients" (S arrays of k numbers), "offsets" (k numbers), and
 * the kernel input preprocessing as "mean" and "scale"; the kernel's name and γ, degree,
 * coef0 are in "parameters". Being large, they are written without indentation. The
 * "method" decides the layout: {@link #readAny} reads both, {@link #read} linear models
 * only.
 */
public final class ModelFile {

	public static final String FORMAT = "contrastive-pca-model";
	public static final int VERSION = 1;

	private static final Gson GSON = new GsonBuilder().serializeNulls().setPrettyPrinting()
		.disableHtmlEscaping()
		.serializeSpecialFloatingPointValues().create();
	private static final Gson COMPACT = new GsonBuilder().serializeNulls()
		.disableHtmlEscaping().serializeSpecialFloatingPointValues().create();

	private ModelFile() {}

	/** The model as a JSON tree. */
	public static JsonObject toJson(final CpcaModel m) {
		final JsonObject o = header(m);
		final JsonArray comps = new JsonArray();
		for (final double[] c : m.components())
			comps.add(array(c));
		o.add("components", comps);
		variances(o, m, m.targetTotalVariance());
		o.add("mean", array(m.preprocessing().mean()));
		final double[] scale = m.preprocessing().scale();
		o.add("scale", scale == null ? null : array(scale));
		o.addProperty("whiten", m.whiten());
		return withNotes(o, m);
	}

	/** What every model file starts with: format, version, method, α, parameters. */
	private static JsonObject header(final FittedModel m) {
		final JsonObject o = new JsonObject();
		o.addProperty("format", FORMAT);
		o.addProperty("version", VERSION);
		o.addProperty("method", m.method());
		o.add("alpha", alphaJson(m.alpha()));
		o.add("parameters", parametersJson(m.parameters()));
		return o;
	}

	/** The eigenvalues and the per-component and total variances. */
	private static void variances(final JsonObject o, final FittedModel m,
		final double targetTotal)
	{
		o.add("eigenvalues", array(m.eigenvalues()));
		o.add("target_variance", array(m.targetVariance()));
		o.add("background_variance", array(m.backgroundVariance()));
		o.addProperty("target_total_variance", targetTotal);
	}

	/** What every model file ends with: diagnostics and attributes. */
	private static JsonObject withNotes(final JsonObject o, final FittedModel m) {
		final JsonArray diag = new JsonArray();
		m.diagnostics().forEach(diag::add);
		o.add("diagnostics", diag);
		final JsonObject attr = new JsonObject();
		// a list (the table's column names) as a real JSON array, readable by any JSON tool
		m.attributes().forEach((k, v) -> attr.add(k, attributeJson(v)));
		o.add("attributes", attr);
		return o;
	}

	/** An attribute's value: a JSON array as an array, anything else as a string. */
	private static JsonElement attributeJson(final String value) {
		if (value.startsWith("[")) try {
			final JsonElement e = JsonParser.parseString(value);
			if (e.isJsonArray()) return e;
		}
		catch (final JsonParseException e) { /* not a list: a string */ }
		return new JsonPrimitive(value);
	}

	/** A method's parameters as a JSON object: numbers, arrays of numbers and names. */
	public static JsonObject parametersJson(final Map<String, Object> parameters) {
		final JsonObject p = new JsonObject();
		parameters.forEach((key, v) -> p.add(key, v instanceof double[] ? array((double[]) v)
			: v instanceof String ? new JsonPrimitive((String) v) : number((Double) v)));
		return p;
	}

	private static JsonElement number(final double v) {
		return Double.isFinite(v) ? new JsonPrimitive(v) : Double.isNaN(v) ? null
			: new JsonPrimitive(v > 0 ? "inf" : "-inf");
	}

	/** α as JSON: a number, "inf", or null when the method has no α. */
	public static JsonElement alphaJson(final double alpha) {
		if (Double.isNaN(alpha)) return null;
		if (alpha == Double.POSITIVE_INFINITY) return new JsonPrimitive("inf");
		return new JsonPrimitive(alpha);
	}

	/** A kernel cPCA model as a JSON tree. */
	public static JsonObject toJson(final KernelCpcaModel m) {
		final JsonObject o = header(m);
		variances(o, m, m.targetTotalVariance());
		o.add("mean", array(m.input().mean()));
		final double[] scale = m.input().scale();
		o.add("scale", scale == null ? null : array(scale));
		final JsonArray support = new JsonArray();
		for (final float[] row : m.supportRows()) {
			final JsonArray a = new JsonArray();
			for (final float v : row)
				a.add(v);
			support.add(a);
		}
		o.add("support", support);
		final JsonArray coef = new JsonArray();
		for (final double[] row : m.coefficients())
			coef.add(array(row));
		o.add("coefficients", coef);
		o.add("offsets", array(m.offsets()));
		return withNotes(o, m);
	}

	/** Any fitted model as a JSON tree. */
	public static JsonObject toJson(final FittedModel m) {
		if (m instanceof CpcaModel) return toJson((CpcaModel) m);
		if (m instanceof KernelCpcaModel) return toJson((KernelCpcaModel) m);
		throw new IllegalArgumentException("there is no model-file format for method " + m
			.method() + " yet");
	}

	/**
	 * Models with more numbers than this are written without indentation (one number a
	 * line would make a 65,536-pixel model several megabytes, slow to write and read).
	 */
	public static final int COMPACT_ABOVE = 20_000;

	/**
	 * Writes any fitted model atomically: small linear models indented for reading, kernel
	 * models and large models without indentation, streamed to the file.
	 */
	public static void write(final FittedModel m, final Path file) throws IOException {
		final JsonObject json = toJson(m);
		final Gson gson = m instanceof KernelCpcaModel || size(m) > COMPACT_ABOVE ? COMPACT
			: GSON;
		AtomicFiles.write(file, tmp -> {
			try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
				gson.toJson(json, w);
			}
		});
	}

	/** About how many numbers the model file holds. */
	private static long size(final FittedModel m) {
		if (!(m instanceof CpcaModel)) return 0;
		final CpcaModel c = (CpcaModel) m;
		return (long) (c.numComponents() + 2) * c.features();
	}

	/**
	 * Checks, before a run, that a model can be saved as {@code file}: not a folder, and
	 * not an existing file other than a model file (a model file is replaced, nothing
	 * else is).
	 *
	 * @param what how the front end names the setting (e.g. "save_model")
	 * @throws IllegalArgumentException naming the file, the problem and the fix
	 */
	public static void checkSaveTarget(final Path file, final String what) {
		if (file == null || file.toString().trim().isEmpty()) throw new IllegalArgumentException(
			what + " is empty: give a file name such as model.json");
		if (Files.isDirectory(file)) throw new IllegalArgumentException(what + " " + file +
			" is a folder: give a file name such as " + file.resolve("model.json"));
		if (Files.exists(file)) {
			boolean model = false;
			try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
				final char[] head = new char[4096];
				final int n = r.read(head);
				model = n > 0 && new String(head, 0, n).contains("\"" + FORMAT + "\"");
			}
			catch (final IOException | RuntimeException e) {
				model = false;
			}
			if (!model) throw new IllegalArgumentException(what + " " + file + " exists and " +
				"is not a model file: choose another name (only an earlier model file is " +
				"replaced)");
		}
		final Path parent = file.toAbsolutePath().getParent();
		if (parent != null && Files.exists(parent) && !Files.isDirectory(parent))
			throw new IllegalArgumentException(what + " " + file + " cannot be written: " +
				parent + " is a file, not a folder");
	}

	/** Writes text atomically (see {@link AtomicFiles}). */
	public static void writeAtomically(final Path file, final String text)
		throws IOException
	{
		AtomicFiles.write(file, tmp -> {
			try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
				w.write(text);
			}
		});
	}

	/**
	 * Reads and validates a model file.
	 *
	 * @throws IllegalArgumentException naming the file and the problem when it is missing,
	 *           not JSON, not a model file, of an unknown version or inconsistent
	 */
	public static CpcaModel read(final Path file) {
		final FittedModel m = readAny(file);
		if (m instanceof CpcaModel) return (CpcaModel) m;
		throw bad(file, "it holds a " + m.method() + " model, which has no components in " +
			"input space and no reconstructions; project data with it by cpca apply (in " +
			"code: ModelFile.readAny)");
	}

	/**
	 * Reads and validates a model file of any method: a {@link CpcaModel} or, for method
	 * "kernel", a {@link KernelCpcaModel}. The file is streamed ({@link ModelJson}): its
	 * numbers take about the memory they need.
	 *
	 * @throws IllegalArgumentException naming the file and the problem when it is missing,
	 *           not JSON, not a model file, of an unknown version or inconsistent, or when
	 *           the memory is too short to read it
	 */
	public static FittedModel readAny(final Path file) {
		final ModelJson o;
		try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			o = ModelJson.read(r, file);
		}
		catch (final NoSuchFileException e) {
			throw new IllegalArgumentException("model file " + file +
				" does not exist: check the path (cpca fit writes DIR/model.json)");
		}
		catch (final CharacterCodingException e) {
			throw bad(file, "it is not UTF-8 text");
		}
		catch (final IOException | IllegalStateException | NumberFormatException e) {
			// the parser's own words, without its exception class names and hints
			String why = e.getMessage() == null ? "" : e.getMessage().replaceAll(
				"[a-z]+(\\.[a-z]+)+\\.[A-Za-z]*Exception: ", "").replace(
					"Use JsonReader.setLenient(true) to accept malformed JSON ", "").replaceAll(
						"\\s*See https?://\\S+", "");
			throw bad(file, "it is not valid JSON (" + why.trim() + ")");
		}
		catch (final OutOfMemoryError e) {
			long size = -1;
			try {
				size = Files.size(file);
			}
			catch (final IOException ignored) {
				// the size is only for the message
			}
			throw new IllegalArgumentException("not enough memory to read model file " +
				file + (size >= 0 ? " (" + Memory.text(size) + ")" : "") + " (the maximum heap is " +
				Memory.text(Runtime.getRuntime().maxMemory()) + "): " + Memory.MORE_HEAP);
		}
		final String method = header(o, file);
		return "kernel".equals(method) ? kernelFromJson(o, file) : fromJson(o, method, file);
	}

	/** Checks format and version; the method, which must be known. */
	private static String header(final ModelJson o, final Path file) {
		if (!o.has("format") || !FORMAT.equals(o.get("format")))
			throw bad(file, "its \"format\" is not \"" + FORMAT + "\"");
		final BigDecimal version = o.exact("version");
		if (version.compareTo(BigDecimal.valueOf(VERSION)) != 0) throw bad(file,
			"it has version " + version + " but this release reads version " + VERSION +
				": refit the model with this release");
		final String method = o.string("method");
		if (Method.ofId(method) == null) throw bad(file, "its method \"" + (method
			.length() > 40 ? method.substring(0, 40) + "…" : method) + "\" is not known (" +
			Method.names() + ")");
		return method;
	}

	/**
	 * Parameters that only one method's models have: a model whose parameters belong to
	 * another method (a PCPCA model labelled "cpca") was edited or mislabelled.
	 */
	private static final Map<String, String> OWNER = new LinkedHashMap<>();
	static {
		for (final String key : new String[] { "noise_variance", "loading_scales" })
			OWNER.put(key, "pcpca");
		for (final String key : new String[] { "constraint_scale", "dual" })
			OWNER.put(key, "uca");
		OWNER.put("k_b", "rpca");
		for (final String key : new String[] { "eta", "tau", "samples_seen" })
			OWNER.put(key, "online");
		for (final String key : new String[] { "variant", "pooled_components", "null_upper",
			"null_lower" })
			OWNER.put(key, "gcpca");
	}

	private static double alpha(final ModelJson o, final Path file) {
		final Object a = o.get("alpha");
		if (a == null) return Double.NaN;
		if ("inf".equals(a)) return Double.POSITIVE_INFINITY;
		if (a instanceof BigDecimal) return o.number("alpha");
		throw bad(file, "the field \"alpha\" holds " + ModelJson.describe(a) +
			" where a number, \"inf\" or null is expected");
	}

	private static Map<String, Object> parameters(final ModelJson o, final String method,
		final Path file)
	{
		final Map<String, Object> parameters = new LinkedHashMap<>();
		o.object("parameters").forEach((key, v) -> {
			final String owner = OWNER.get(key);
			if (owner != null && !owner.equals(method)) throw bad(file, "its parameter \"" +
				key + "\" belongs to method " + owner + ", not to its method \"" + method +
				"\" (the file was edited or mislabelled)");
			parameters.put(key, parameter(key, v, file));
		});
		return parameters;
	}

	/** A number ("inf", "-inf" and null included), an array of numbers, or a name. */
	private static Object parameter(final String key, final Object v, final Path file) {
		if (v == null) return Double.NaN;
		if (v instanceof double[]) return v;
		if (v instanceof BigDecimal) {
			final double d = ((BigDecimal) v).doubleValue();
			if (Double.isFinite(d)) return d;
		}
		else if ("inf".equals(v)) return Double.POSITIVE_INFINITY;
		else if ("-inf".equals(v)) return Double.NEGATIVE_INFINITY;
		else if (v instanceof String) return v;
		throw bad(file, "its parameter \"" + key + "\" holds " + ModelJson.describe(v) +
			" where a number, an array of numbers or a name is expected");
	}

	private static Map<String, String> attributes(final ModelJson o, final Path file) {
		final Map<String, String> attributes = new LinkedHashMap<>();
		o.object("attributes").forEach((key, v) -> {
			final String text = ModelJson.text(v);
			if (text == null) throw bad(file, "its attribute \"" + key + "\" holds " + ModelJson
				.describe(v) + " where a text or a list is expected");
			attributes.put(key, text);
		});
		return attributes;
	}

	private static KernelCpcaModel kernelFromJson(final ModelJson o, final Path file) {
		final Map<String, Object> parameters = parameters(o, "kernel", file);
		final KernelFunction kernel;
		try {
			kernel = KernelFunction.fromParameters(parameters);
		}
		catch (final IllegalArgumentException e) {
			throw bad(file, "its kernel is not valid (" + e.getMessage() + ")");
		}
		if (kernel.gammaIsAutomatic()) throw bad(file, "its kernel has no gamma");
		final double[] mean = o.numbers("mean", false);
		final int d = mean.length;
		final double[] scale = o.has("scale") ? length(o.numbers("scale", false), d, file,
			"scale") : null;
		final double[] offsets = o.numbers("offsets", false);
		final int k = offsets.length;
		if (k == 0) throw bad(file, "it has no components (empty \"offsets\")");
		final double[][] sup = o.rows("support"), coef = o.rows("coefficients");
		if (sup.length == 0 || sup.length != coef.length) throw bad(file, "it has " +
			sup.length + " support samples but " + coef.length + " rows of coefficients");
		final float[][] support = new float[sup.length][];
		for (int i = 0; i < support.length; i++) {
			final double[] row = length(sup[i], d, file, "support");
			support[i] = new float[d];
			for (int j = 0; j < d; j++)
				support[i][j] = (float) row[j];
			length(coef[i], k, file, "coefficients");
		}
		final double[][] v = readVariances(o, file, k);
		return new KernelCpcaModel(alpha(o, file), parameters, kernel, Preprocessing.of(
			mean, scale), support, coef, offsets, v[0], v[1], v[2], o.number(
				"target_total_variance"), o.strings("diagnostics"), attributes(o, file), null);
	}

	/**
	 * The eigenvalues, the target variances and the background variances (k each; the
	 * background's may be absent for PCA) of a model file.
	 */
	private static double[][] readVariances(final ModelJson o, final Path file,
		final int k)
	{
		return new double[][] { length(o.numbers("eigenvalues", false), k, file,
			"eigenvalues"), length(o.numbers("target_variance", false), k, file,
				"target_variance"), length(o.numbers("background_variance", true), k, file,
					"background_variance") };
	}

	private static CpcaModel fromJson(final ModelJson o, final String method,
		final Path file)
	{
		final double alpha = alpha(o, file);
		final Map<String, Object> parameters = parameters(o, method, file);
		final double[][] components = o.rows("components");
		if (components.length == 0) throw bad(file, "it has no components");
		final double[] mean = o.numbers("mean", false);
		final int d = mean.length, k = components.length;
		for (int c = 0; c < k; c++)
			if (components[c].length != d) throw bad(file, "component " + (c + 1) + " has " +
				components[c].length + " values but the mean has " + d);
		final double[][] v = readVariances(o, file, k);
		final double[] scale = o.has("scale") ? length(o.numbers("scale", false), d, file,
			"scale") : null;
		final CpcaModel model = new CpcaModel(method, alpha, parameters, components, v[0],
			v[1], v[2], o.number("target_total_variance"), Preprocessing.of(mean, scale), o
				.bool("whiten", false), o.strings("diagnostics"), attributes(o, file), null);
		if (!"pcpca".equals(method)) return model;
		try {
			return PcpcaModel.of(model);
		}
		catch (final IllegalArgumentException e) {
			throw bad(file, "its PCPCA parameters are not valid (" + e.getMessage() + ")");
		}
	}

	private static double[] length(final double[] v, final int n, final Path file,
		final String field)
	{
		if (v.length != n) throw bad(file, "\"" + field + "\" has " + v.length +
			" values where " + n + " are expected");
		return v;
	}

	private static JsonArray array(final double[] v) {
		final JsonArray a = new JsonArray();
		for (final double x : v)
			a.add(Double.isFinite(x) ? new JsonPrimitive(x) : null);
		return a;
	}

	static IllegalArgumentException bad(final Path file, final String why) {
		return new IllegalArgumentException("cannot use " + file +
			" as a Contrastive PCA model: " + why +
			"; give a model.json written by cpca fit (or refit)");
	}
}
