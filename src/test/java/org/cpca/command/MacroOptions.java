package org.cpca.command;

import ij.ImagePlus;
import ij.Macro;

import java.io.File;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.scijava.ItemIO;
import org.scijava.plugin.Parameter;
import org.scijava.service.Service;

/**
 * The macro option strings of a command, the way ImageJ's macro recorder and Fiji's
 * macro bridge write and read them: {@code key=value} per input parameter (values with
 * spaces in brackets), a boolean as its bare key when true, images by title. Built from
 * the {@link Parameter} fields by reflection, so a test can check that every parameter
 * has a working macro key.
 */
final class MacroOptions {

	private MacroOptions() {}

	/**
	 * The input parameter fields (no outputs, no services), inherited ones included
	 * (superclass first), in declaration order.
	 */
	static List<Field> inputs(final Class<?> command) {
		final List<Field> out = new ArrayList<>();
		final List<Class<?>> chain = new ArrayList<>();
		for (Class<?> c = command; c != null && c != Object.class; c = c.getSuperclass())
			chain.add(0, c);
		for (final Class<?> c : chain) for (final Field f : c.getDeclaredFields()) {
			final Parameter p = f.getAnnotation(Parameter.class);
			if (p == null || p.type() == ItemIO.OUTPUT || Service.class.isAssignableFrom(f
				.getType()) || f.getType() == org.scijava.Context.class) continue;
			out.add(f);
		}
		return out;
	}

	/** The option string for these values (missing keys are left out). */
	static String build(final Class<?> command, final Map<String, Object> values) {
		final StringBuilder sb = new StringBuilder();
		for (final Field f : inputs(command)) {
			final Object v = values.get(f.getName());
			if (v == null) continue;
			final String text;
			if (v instanceof Boolean) {
				if ((Boolean) v) append(sb, f.getName());
				continue;
			}
			else if (v instanceof ImagePlus) text = ((ImagePlus) v).getTitle();
			else if (v instanceof File) text = ((File) v).getPath();
			else text = v.toString();
			append(sb, f.getName() + "=" + (text.contains(" ") ? "[" + text + "]" : text));
		}
		return sb.toString();
	}

	private static void append(final StringBuilder sb, final String s) {
		if (sb.length() > 0) sb.append(' ');
		sb.append(s);
	}

	/**
	 * Reads an option string back into inputs: every input field's key is looked up,
	 * images are found by title among {@code open}.
	 *
	 * @throws IllegalArgumentException for a key that is not a parameter or an unknown
	 *           image title
	 */
	static Map<String, Object> parse(final Class<?> command, final String options,
		final List<ImagePlus> open)
	{
		final Map<String, Object> in = new LinkedHashMap<>();
		final List<String> names = new ArrayList<>();
		for (final Field f : inputs(command)) {
			final String key = f.getName();
			names.add(key);
			final Class<?> type = f.getType();
			if (type == boolean.class || type == Boolean.class) {
				in.put(key, Pattern.compile("(^|\\s)" + key + "(\\s|$)").matcher(options)
					.find());
				continue;
			}
			final String v = Macro.getValue(options + " ", key, null);
			if (v == null) continue;
			if (type == ImagePlus.class) {
				ImagePlus found = null;
				for (final ImagePlus imp : open)
					if (imp.getTitle().equals(v)) found = imp;
				if (found == null) throw new IllegalArgumentException("no image titled " + v);
				in.put(key, found);
			}
			else if (type == File.class) in.put(key, new File(v));
			else if (type == int.class) in.put(key, Integer.parseInt(v));
			else if (type == long.class) in.put(key, Long.parseLong(v));
			else if (type == double.class) in.put(key, Double.parseDouble(v));
			else in.put(key, v);
		}
		// every key in the string must be a parameter
		for (final String token : options.replaceAll("\\[[^\\]]*\\]", "").trim().split(
			"\\s+"))
		{
			if (token.isEmpty()) continue;
			final String key = token.contains("=") ? token.substring(0, token.indexOf('='))
				: token;
			if (!names.contains(key)) throw new IllegalArgumentException("'" + key +
				"' is not a parameter of " + command.getSimpleName());
		}
		return in;
	}
}
