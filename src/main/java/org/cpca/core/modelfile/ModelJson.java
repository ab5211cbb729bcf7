package org.cpca.core.modelfile;

import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

/**
 * A model file's JSON read as a stream into plain values, each field checked for its type
 * when asked for: objects as maps, arrays of numbers (and nulls) as {@code double[]}
 * (null as NaN), other arrays as lists, numbers outside arrays as {@link BigDecimal} (so
 * "1.5" or "1e400" is never read as another whole number), strings, booleans, and
 * {@code null}. Arrays of numbers take 8 bytes a number, so a large model is read in
 * about the memory its numbers need (a tree of JSON objects needs several times more).
 * Every problem is an {@link IllegalArgumentException} naming the file, the field and
 * what was expected (through {@link ModelFile}'s wording).
 */
final class ModelJson {

	private final Map<String, Object> fields;
	private final Path file;

	private ModelJson(final Map<String, Object> fields, final Path file) {
		this.fields = fields;
		this.file = file;
	}

	/**
	 * Reads one JSON object (strict JSON: no NaN, no comments, nothing after it).
	 *
	 * @throws IOException for a read error or malformed JSON
	 * @throws IllegalArgumentException if the document is not a JSON object
	 */
	@SuppressWarnings("unchecked")
	static ModelJson read(final Reader in, final Path file) throws IOException {
		final JsonReader r = new JsonReader(in);
		r.setLenient(false);
		final Object v = value(r);
		if (r.peek() != JsonToken.END_DOCUMENT) throw new IOException(
			"more text after the end of the JSON object");
		if (!(v instanceof Map)) throw ModelFile.bad(file, "it is not a JSON object");
		return new ModelJson((Map<String, Object>) v, file);
	}

	private static Object value(final JsonReader r) throws IOException {
		switch (r.peek()) {
			case BEGIN_OBJECT: {
				final Map<String, Object> m = new LinkedHashMap<>();
				r.beginObject();
				while (r.hasNext())
					m.put(r.nextName(), value(r));
				r.endObject();
				return m;
			}
			case BEGIN_ARRAY:
				return array(r);
			case STRING:
				return r.nextString();
			case NUMBER:
				return new BigDecimal(r.nextString());
			case BOOLEAN:
				return r.nextBoolean();
			case NULL:
				r.nextNull();
				return null;
			default:
				throw new IOException("unexpected " + r.peek() + " " + r.getPath());
		}
	}

	/** An array: double[] while its elements are numbers or null, else a list. */
	private static Object array(final JsonReader r) throws IOException {
		r.beginArray();
		double[] numbers = new double[16];
		int n = 0;
		List<Object> list = null;
		while (r.hasNext()) {
			final JsonToken t = r.peek();
			if (list == null && (t == JsonToken.NUMBER || t == JsonToken.NULL)) {
				if (n == numbers.length) numbers = Arrays.copyOf(numbers, 2 * n);
				if (t == JsonToken.NULL) {
					r.nextNull();
					numbers[n++] = Double.NaN;
				}
				else numbers[n++] = number(r);
				continue;
			}
			if (list == null) {
				list = new ArrayList<>();
				for (int i = 0; i < n; i++)
					list.add(Double.isNaN(numbers[i]) ? null : BigDecimal.valueOf(numbers[i]));
				numbers = null;
			}
			list.add(value(r));
		}
		r.endArray();
		return list != null ? list : Arrays.copyOf(numbers, n);
	}

	/** A number in an array; one beyond the doubles' range is refused (never ±∞). */
	private static double number(final JsonReader r) throws IOException {
		final String text = r.nextString();
		final double v = Double.parseDouble(text);
		if (!Double.isFinite(v)) throw new NumberFormatException(text +
			" is beyond the range of double-precision numbers (" + r.getPath() + ")");
		return v;
	}

	boolean has(final String name) {
		return fields.get(name) != null;
	}

	/** A required field of any type. */
	private Object required(final String name) {
		if (!fields.containsKey(name)) throw ModelFile.bad(file, "the field \"" + name +
			"\" is missing");
		final Object v = fields.get(name);
		if (v == null) throw ModelFile.bad(file, "the field \"" + name + "\" is null");
		return v;
	}

	private IllegalArgumentException wrong(final String name, final Object v,
		final String expected)
	{
		return ModelFile.bad(file, "the field \"" + name + "\" holds " + describe(v) +
			" where " + expected + " is expected");
	}

	/** How a value is shown in messages: its JSON text (shortened) or its kind. */
	static String describe(final Object v) {
		if (v == null) return "null";
		if (v instanceof String) {
			final String s = (String) v;
			return "the text \"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "\"";
		}
		if (v instanceof BigDecimal) return "the number " + v;
		if (v instanceof Boolean) return v.toString();
		if (v instanceof double[]) return "an array of numbers";
		if (v instanceof Map) return "an object";
		return "an array of arrays or objects";
	}

	/**
	 * An attribute's value as text: a text, number or boolean as written, an array (a list
	 * such as a table's column names) as its compact JSON; {@code null} for an object, a
	 * null or an array holding either.
	 */
	static String text(final Object v) {
		if (v instanceof String) return (String) v;
		if (v instanceof BigDecimal) return ((BigDecimal) v).toPlainString();
		if (v instanceof Boolean) return v.toString();
		final JsonArray a = new JsonArray();
		if (v instanceof double[]) {
			for (final double x : (double[]) v)
				if (Double.isNaN(x)) return null;
				else a.add(x);
			return a.toString();
		}
		if (!(v instanceof List)) return null;
		for (final Object e : (List<?>) v)
			if (e instanceof String) a.add((String) e);
			else if (e instanceof BigDecimal) a.add((BigDecimal) e);
			else if (e instanceof Boolean) a.add((Boolean) e);
			else return null;
		return a.toString();
	}

	String string(final String name) {
		final Object v = required(name);
		if (!(v instanceof String)) throw wrong(name, v, "a text");
		return (String) v;
	}

	/** A finite number. */
	double number(final String name) {
		final Object v = required(name);
		if (!(v instanceof BigDecimal)) throw wrong(name, v, "a number");
		final double d = ((BigDecimal) v).doubleValue();
		if (!Double.isFinite(d)) throw wrong(name, v, "a number within the doubles' range");
		return d;
	}

	/** A raw number, for exact comparisons (a version). */
	BigDecimal exact(final String name) {
		final Object v = required(name);
		if (!(v instanceof BigDecimal)) throw wrong(name, v, "a number");
		return (BigDecimal) v;
	}

	/** true or false; {@code otherwise} when the field is absent. */
	boolean bool(final String name, final boolean otherwise) {
		if (!fields.containsKey(name)) return otherwise;
		final Object v = fields.get(name);
		if (!(v instanceof Boolean)) throw wrong(name, v, "true or false");
		return (Boolean) v;
	}

	/** An array of numbers; a null entry is NaN when {@code nullIsNaN}, else refused. */
	double[] numbers(final String name, final boolean nullIsNaN) {
		return numbers(name, required(name), nullIsNaN);
	}

	/** An array of numbers, or {@code null} when absent or null. */
	double[] numbersOrNull(final String name) {
		return has(name) ? numbers(name, false) : null;
	}

	private double[] numbers(final String name, final Object v, final boolean nullIsNaN) {
		if (!(v instanceof double[])) throw wrong(name, v, "an array of numbers");
		final double[] a = (double[]) v;
		if (!nullIsNaN) for (int i = 0; i < a.length; i++)
			if (Double.isNaN(a[i])) throw ModelFile.bad(file, "\"" + name +
				"\" holds null at position " + (i + 1) + " where a number is expected");
		return a;
	}

	/** An array of arrays of numbers (components, support samples, coefficients). */
	double[][] rows(final String name) {
		final Object v = required(name);
		if (v instanceof double[] && ((double[]) v).length == 0) return new double[0][];
		if (!(v instanceof List)) throw wrong(name, v, "an array of arrays of numbers");
		final List<?> list = (List<?>) v;
		final double[][] out = new double[list.size()][];
		for (int i = 0; i < out.length; i++) {
			final Object row = list.get(i);
			if (!(row instanceof double[])) throw ModelFile.bad(file, "\"" + name +
				"\" holds " + describe(row) + " at position " + (i + 1) +
				" where an array of numbers is expected");
			out[i] = numbers(name, row, false);
		}
		return out;
	}

	/** An array of texts (absent: empty). */
	List<String> strings(final String name) {
		final List<String> out = new ArrayList<>();
		if (!has(name)) return out;
		final Object v = fields.get(name);
		if (v instanceof double[] && ((double[]) v).length == 0) return out;
		if (!(v instanceof List)) throw wrong(name, v, "an array of texts");
		for (final Object e : (List<?>) v) {
			if (!(e instanceof String)) throw wrong(name, e, "a text");
			out.add((String) e);
		}
		return out;
	}

	/** An object of name → value, values checked by the caller (absent: empty). */
	@SuppressWarnings("unchecked")
	Map<String, Object> object(final String name) {
		if (!has(name)) return new LinkedHashMap<>();
		final Object v = fields.get(name);
		if (!(v instanceof Map)) throw wrong(name, v, "an object");
		return (Map<String, Object>) v;
	}

	/** The raw value of a field (null when absent), for fields of several types. */
	Object get(final String name) {
		return fields.get(name);
	}
}
