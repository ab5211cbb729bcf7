package org.cpca.core;

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
 */
public final class ModelFile {

	public static final String FORMAT = "contrastive-pca-model";
	public static final int VERSION = 1;

	private static final Gson GSON = new GsonBuilder().serializeNulls().setPrettyPrinting()
		.disableHtmlEscaping()
		.serializeSpecialFloatingPointValues().create();

	private ModelFile() {}

	/** The model as a JSON tree. */
	public static JsonObject toJson(final CpcaModel m) {
		final JsonObject o = new JsonObject();
		o.addProperty("format", FORMAT);
		o.addProperty("version", VERSION);
		o.addProperty("method", m.method());
		o.add("alpha", alphaJson(m.alpha()));
		o.add("parameters", parametersJson(m.parameters()));
		final JsonArray comps = new JsonArray();
		for (final double[] c : m.components())
			comps.add(array(c));
		o.add("components", comps);
		o.add("eigenvalues", array(m.eigenvalues()));
		o.add("target_variance", array(m.targetVariance()));
		o.add("background_variance", array(m.backgroundVariance()));
		o.addProperty("target_total_variance", m.targetTotalVariance());
		o.add("mean", array(m.preprocessing().mean()));
		final double[] scale = m.preprocessing().scale();
		o.add("scale", scale == null ? null : array(scale));
		o.addProperty("whiten", m.whiten());
		final JsonArray diag = new JsonArray();
		m.diagnostics().forEach(diag::add);
		o.add("diagnostics", diag);
		final JsonObject attr = new JsonObject();
		m.attributes().forEach(attr::addProperty);
		o.add("attributes", attr);
		return o;
	}

	/** A method's parameters as a JSON object: numbers and arrays of numbers. */
	public static JsonObject parametersJson(final Map<String, Object> parameters) {
		final JsonObject p = new JsonObject();
		parameters.forEach((key, v) -> p.add(key, v instanceof double[] ? array((double[]) v)
			: number((Double) v)));
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

	/** Writes the model atomically. */
	public static void write(final FittedModel m, final Path file) throws IOException {
		if (!(m instanceof CpcaModel)) throw new IllegalArgumentException(
			"there is no model-file format for method " + m.method() + " yet");
		writeAtomically(file, GSON.toJson(toJson((CpcaModel) m)));
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
			throw bad(file, "it is not valid JSON (" + e.getMessage() + ")");
		}
		try {
			return fromJson(o, file);
		}
		catch (final IllegalStateException | UnsupportedOperationException
				| ClassCastException | NullPointerException | NumberFormatException e)
		{
			throw bad(file, "a field has the wrong type (" + e.getMessage() + ")");
		}
	}

	private static CpcaModel fromJson(final JsonObject o, final Path file) {
		if (!o.has("format") || !FORMAT.equals(o.get("format").getAsString()))
			throw bad(file, "its \"format\" is not \"" + FORMAT + "\"");
		final int version = o.get("version").getAsInt();
		if (version != VERSION) throw bad(file, "it has version " + version +
			" but this release reads version " + VERSION +
			": refit the model with this release");
		final String method = o.get("method").getAsString();
		final JsonElement a = o.get("alpha");
		final double alpha = a == null || a.isJsonNull() ? Double.NaN : a.isJsonPrimitive() &&
			a.getAsJsonPrimitive().isString() && "inf".equals(a.getAsString())
				? Double.POSITIVE_INFINITY : a.getAsDouble();
		final Map<String, Object> parameters = new LinkedHashMap<>();
		if (o.has("parameters") && !o.get("parameters").isJsonNull()) o.getAsJsonObject(
			"parameters").entrySet().forEach(e -> parameters.put(e.getKey(), e.getValue()
				.isJsonArray() ? numbers(e.getValue().getAsJsonArray(), file, e.getKey(), true)
					: parameter(e.getValue())));
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
		final double[] eig = length(numbers(o.getAsJsonArray("eigenvalues"), file,
			"eigenvalues", false), k, file, "eigenvalues");
		final double[] tv = length(numbers(o.getAsJsonArray("target_variance"), file,
			"target_variance", false), k, file, "target_variance");
		final double[] bv = length(numbers(o.getAsJsonArray("background_variance"), file,
			"background_variance", true), k, file, "background_variance");
		final JsonElement s = o.get("scale");
		final double[] scale = s == null || s.isJsonNull() ? null : length(numbers(s
			.getAsJsonArray(), file, "scale", false), d, file, "scale");
		final List<String> diagnostics = new ArrayList<>();
		if (o.has("diagnostics")) o.getAsJsonArray("diagnostics").forEach(e -> diagnostics
			.add(e.getAsString()));
		final Map<String, String> attributes = new LinkedHashMap<>();
		if (o.has("attributes")) o.getAsJsonObject("attributes").entrySet().forEach(
			e -> attributes.put(e.getKey(), e.getValue().getAsString()));
		return new CpcaModel(method, alpha, parameters, components, eig, tv, bv, o.get(
			"target_total_variance").getAsDouble(), Preprocessing.of(mean, scale), o.has(
				"whiten") && o.get("whiten").getAsBoolean(), diagnostics, attributes, null);
	}

	private static Double parameter(final JsonElement e) {
		if (e.isJsonNull()) return Double.NaN;
		if (e.getAsJsonPrimitive().isString()) {
			final String s = e.getAsString();
			if (s.equals("inf")) return Double.POSITIVE_INFINITY;
			if (s.equals("-inf")) return Double.NEGATIVE_INFINITY;
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
