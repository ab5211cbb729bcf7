package org.cpca.macro;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An ImageJ macro option string ({@code "alpha=2 components=3 standardize
 * more=[a b.tif]"}) as an ordered map of key → value: a bare word is a flag (value
 * "true"), a bracketed value may hold spaces. Keys are whole words, so
 * {@code background_components=} is never read as {@code components=} (as ImageJ's
 * {@code Macro.getValue} would).
 */
final class MacroKeys {

	private MacroKeys() {}

	/** No setting's key is longer; a longer word is shown shortened. */
	static final int LONGEST = 40;

	/** Text for a message: at most {@link #LONGEST} characters, then "…". */
	static String shorten(final String text) {
		return text.length() <= LONGEST ? text : text.substring(0, LONGEST) + "…";
	}

	/**
	 * @throws IllegalArgumentException for an unclosed bracket or a key given twice
	 */
	static Map<String, String> parse(final String options) {
		final Map<String, String> out = new LinkedHashMap<>();
		final String s = options == null ? "" : options;
		int i = 0;
		final int n = s.length();
		while (i < n) {
			while (i < n && Character.isWhitespace(s.charAt(i)))
				i++;
			if (i >= n) break;
			int j = i;
			while (j < n && s.charAt(j) != '=' && !Character.isWhitespace(s.charAt(j)))
				j++;
			final String key = s.substring(i, j).toLowerCase(Locale.ROOT);
			if (key.length() > LONGEST) throw new IllegalArgumentException(shorten(key) + " (" +
				key.length() + " characters) is not a setting: give keys such as alpha=2 " +
				"components=3");
			String value = "true";
			if (j < n && s.charAt(j) == '=') {
				j++;
				if (j < n && s.charAt(j) == '[') {
					final int close = s.indexOf(']', j);
					if (close < 0) throw new IllegalArgumentException(key + "=" + shorten(s.substring(j)) +
						" has no closing ]: write " + key + "=[value with spaces]");
					value = s.substring(j + 1, close);
					j = close + 1;
				}
				else {
					final int start = j;
					while (j < n && !Character.isWhitespace(s.charAt(j)))
						j++;
					value = s.substring(start, j);
				}
			}
			if (out.put(key, value) != null) throw new IllegalArgumentException(key +
				" is given twice in \"" + shorten(options) + "\": give each setting once");
			i = j;
		}
		return out;
	}
}
