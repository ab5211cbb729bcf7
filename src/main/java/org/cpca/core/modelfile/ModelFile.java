package org.cpca.core.modelfile;

import org.cpca.core.AtomicFiles;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.kernel.KernelCpcaModel;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
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
	 * "kernel", a {@link KernelCpcaModel}.
	 *
	 * @throws IllegalArgumentException naming the file and the problem when it is missing,
	 *           not JSON, not a model file, of an unknown version or inconsistent
	 */
	public static FittedModel readAny(final Path file) {
		final JsonObject o;
		try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			final JsonElement e = JsonParser.parseReader(r);
			if (!e.isJsonObject()) throw bad(file, "it is not a JSON object");
			o = e.getAsJsonObject();
		}
		catch (final NoSuchFileException e) {
			throw new IllegalArgumentException("model file " + file +
				" does not exist: check the path (cpca fit writes DIR/model.json)");
		}
		catch (final IOException | JsonParseException e) {
			// the parser's own words, without its exception class names and hints
			String why = e.getMessage() == null ? "" : e.getMessage().replaceAll(
				"[a-z]+(\\.[a-z]+)+\\.[A-Za-z]*Exception: ", "").replace(
					"Use JsonReader.setLenient(true) to accept malformed JSON ", "");
			throw bad(file, "it is not valid JSON (" + why.trim() + ")");
		}
		try {
			header(o, file);
			return "kernel".equals(o.get("method").getAsString()) ? kernelFromJson(o, file)
				: fromJson(o, file);
		}
		catch (final IllegalStateException | UnsupportedOperationException
				| ClassCastException | NullPointerException | NumberFormatException e)
		{
			throw bad(file, "a field has the wrong type (" + e.getMessage() + ")");
		}
	}

	private static void header(final JsonObject o, final Path file) {
		if (!o.has("format") || !FORMAT.equals(o.get("format").getAsString()))
			throw bad(file, "its \"format\" is not \"" + FORMAT + "\"");
		final int version = o.get("version").getAsInt();
		if (version != VERSION) throw bad(file, "it has version " + version +
			" but this release reads version " + VERSION +
			": refit the model with this release");
	}

	private static double alpha(final JsonObject o) {
		final JsonElement a = o.get("alpha");
		return a == null || a.isJsonNull() ? Double.NaN : a.isJsonPrimitive() && a
			.getAsJsonPrimitive().isString() && "inf".equals(a.getAsString())
				? Double.POSITIVE_INFINITY : a.getAsDouble();
	}

	private static Map<String, Object> parameters(final JsonObject o, final Path file) {
		final Map<String, Object> parameters = new LinkedHashMap<>();
		if (o.has("parameters") && !o.get("parameters").isJsonNull()) o.getAsJsonObject(
			"parameters").entrySet().forEach(e -> parameters.put(e.getKey(), e.getValue()
				.isJsonArray() ? numbers(e.getValue().getAsJsonArray(), file, e.getKey(), true)
					: parameter(e.getValue())));
		return parameters;
	}

	private static List<String> diagnostics(final JsonObject o) {
		final List<String> diagnostics = new ArrayList<>();
		if (o.has("diagnostics")) o.getAsJsonArray("diagnostics").forEach(e -> diagnostics
			.add(e.getAsString()));
		return diagnostics;
	}

	private static Map<String, String> attributes(final JsonObject o) {
		final Map<String, String> attributes = new LinkedHashMap<>();
		if (o.has("attributes")) o.getAsJsonObject("attributes").entrySet().forEach(
			e -> attributes.put(e.getKey(), e.getValue().isJsonPrimitive() ? e.getValue()
				.getAsString() : e.getValue().toString()));
		return attributes;
	}

	private static KernelCpcaModel kernelFromJson(final JsonObject o, final Path file) {
		final Map<String, Object> parameters = parameters(o, file);
		final KernelFunction kernel;
		try {
			kernel = KernelFunction.fromParameters(parameters);
		}
		catch (final IllegalArgumentException e) {
			throw bad(file, "its kernel is not valid (" + e.getMessage() + ")");
		}
		if (kernel.gammaIsAutomatic()) throw bad(file, "its kernel has no gamma");
		final double[] mean = numbers(o.getAsJsonArray("mean"), file, "mean", false);
		final int d = mean.length;
		final JsonElement s = o.get("scale");
		final double[] scale = s == null || s.isJsonNull() ? null : length(numbers(s
			.getAsJsonArray(), file, "scale", false), d, file, "scale");
		final double[] offsets = numbers(o.getAsJsonArray("offsets"), file, "offsets",
			false);
		final int k = offsets.length;
		if (k == 0) throw bad(file, "it has no components (empty \"offsets\")");
		final JsonArray sup = o.getAsJsonArray("support"), coef = o.getAsJsonArray(
			"coefficients");
		if (sup == null || coef == null) throw bad(file, "the field \"" + (sup == null
			? "support" : "coefficients") + "\" is missing");
		if (sup.size() == 0 || sup.size() != coef.size()) throw bad(file, "it has " + sup
			.size() + " support samples but " + coef.size() + " rows of coefficients");
		final float[][] support = new float[sup.size()][];
		final double[][] coefficients = new double[sup.size()][];
		for (int i = 0; i < support.length; i++) {
			final double[] row = length(numbers(sup.get(i).getAsJsonArray(), file, "support",
				false), d, file, "support");
			support[i] = new float[d];
			for (int j = 0; j < d; j++)
				support[i][j] = (float) row[j];
			coefficients[i] = length(numbers(coef.get(i).getAsJsonArray(), file,
				"coefficients", false), k, file, "coefficients");
		}
		final double[][] v = readVariances(o, file, k);
		final double[] eig = v[0], tv = v[1], bv = v[2];
		return new KernelCpcaModel(alpha(o), parameters, kernel, Preprocessing.of(mean,
			scale), support, coefficients, offsets, eig, tv, bv, o.get(
				"target_total_variance").getAsDouble(), diagnostics(o), attributes(o), null);
	}

	/**
	 * The eigenvalues, the target variances and the background variances (k each; the
	 * background's may be absent for PCA) of a model file.
	 */
	private static double[][] readVariances(final JsonObject o, final Path file,
		final int k)
	{
		return new double[][] { length(numbers(o.getAsJsonArray("eigenvalues"), file,
			"eigenvalues", false), k, file, "eigenvalues"), length(numbers(o.getAsJsonArray(
				"target_variance"), file, "target_variance", false), k, file,
			"target_variance"), length(numbers(o.getAsJsonArray("background_variance"), file,
				"background_variance", true), k, file, "background_variance") };
	}

	private static CpcaModel fromJson(final JsonObject o, final Path file) {
		final String method = o.get("method").getAsString();
		final double alpha = alpha(o);
		final Map<String, Object> parameters = parameters(o, file);
		final JsonArray comps = o.getAsJsonArray("components");
		if (comps == null || comps.size() == 0) throw bad(file, "it has no components");
		final double[] mean = numbers(o.getAsJsonArray("mean"), file, "mean", false);
		final int d = mean.length, k = comps.size();
		final double[][] components = new double[k][];
		for (int c = 0; c < k; c++) {
			components[c] = numbers(comps.get(c).getAsJsonArray(), file, "components", false);
			if (components[c].length != d) throw bad(file, "component " + (c + 1) + " has " +
				components[c].length + " values but the mean has " + d);
		}
		final double[][] v = readVariances(o, file, k);
		final double[] eig = v[0], tv = v[1], bv = v[2];
		final JsonElement s = o.get("scale");
		final double[] scale = s == null || s.isJsonNull() ? null : length(numbers(s
			.getAsJsonArray(), file, "scale", false), d, file, "scale");
		final CpcaModel model = new CpcaModel(method, alpha, parameters, components, eig, tv,
			bv, o.get("target_total_variance").getAsDouble(), Preprocessing.of(mean, scale), o
				.has("whiten") && o.get("whiten").getAsBoolean(), diagnostics(o), attributes(o),
			null);
		if (!"pcpca".equals(method)) return model;
		try {
			return org.cpca.core.pcpca.PcpcaModel.of(model);
		}
		catch (final IllegalArgumentException e) {
			throw bad(file, "its PCPCA parameters are not valid (" + e.getMessage() + ")");
		}
	}

	/** A number ("inf", "-inf" and null included) or, for any other string, the name. */
	private static Object parameter(final JsonElement e) {
		if (e.isJsonNull()) return Double.NaN;
		if (e.getAsJsonPrimitive().isString()) {
			final String s = e.getAsString();
			if (s.equals("inf")) return Double.POSITIVE_INFINITY;
			if (s.equals("-inf")) return Double.NEGATIVE_INFINITY;
			return s;
		}
		return e.getAsDouble();
	}

	private static double[] length(final double[] v, final int n, final Path file,
		final String field)
	{
		if (v.length != n) throw bad(file, "\"" + field + "\" has " + v.length +
			" values where " + n + " are expected");
		return v;
	}

	private static double[] numbers(final JsonArray a, final Path file,
		final String field, final boolean nullIsNaN)
	{
		if (a == null) throw bad(file, "the field \"" + field + "\" is missing");
		final double[] v = new double[a.size()];
		for (int i = 0; i < v.length; i++) {
			final JsonElement e = a.get(i);
			if (e.isJsonNull() && nullIsNaN) v[i] = Double.NaN;
			else {
				v[i] = e.getAsDouble();
				if (!Double.isFinite(v[i])) throw bad(file, "\"" + field +
					"\" holds a non-finite value at position " + (i + 1));
			}
		}
		return v;
	}

	private static JsonArray array(final double[] v) {
		final JsonArray a = new JsonArray();
		for (final double x : v)
			a.add(Double.isFinite(x) ? new JsonPrimitive(x) : null);
		return a;
	}

	private static IllegalArgumentException bad(final Path file, final String why) {
		return new IllegalArgumentException("cannot use " + file +
			" as a Contrastive PCA model: " + why +
			"; give a model.json written by cpca fit (or refit)");
	}
}
