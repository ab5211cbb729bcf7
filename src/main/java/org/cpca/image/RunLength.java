package org.cpca.image;

/**
 * Compact text form of a set of kept pixel indices: {@code "rle:"} followed by
 * comma-separated run lengths over the pixel grid in row-major order, alternating
 * <em>skipped</em> and <em>kept</em> runs and starting with a skipped run (which may be
 * 0). Pixels after the last run are skipped. Example: {@code "rle:3,2,4,1"} keeps
 * indices 3, 4 and 9.
 */
final class RunLength {

	static final String PREFIX = "rle:";

	private RunLength() {}

	/** Encodes strictly increasing indices. */
	static String encode(final int[] kept) {
		final StringBuilder sb = new StringBuilder(PREFIX);
		int next = 0;
		int k = 0;
		while (k < kept.length) {
			final int start = kept[k];
			int end = start + 1;
			k++;
			while (k < kept.length && kept[k] == end) {
				end++;
				k++;
			}
			if (sb.length() > PREFIX.length()) sb.append(',');
			sb.append(start - next).append(',').append(end - start);
			next = end;
		}
		return sb.toString();
	}

	/**
	 * Decodes a run-length string into kept indices.
	 *
	 * @param size number of pixels in the grid; runs must fit into it
	 * @throws IllegalArgumentException on a malformed string
	 */
	static int[] decode(final String text, final int size) {
		if (text == null || !text.startsWith(PREFIX)) throw new IllegalArgumentException(
			"image.mask must start with '" + PREFIX + "' but is '" + shorten(text) +
				"': the model file is damaged or was not written by this plugin");
		final String body = text.substring(PREFIX.length()).trim();
		if (body.isEmpty()) return new int[0];
		final String[] parts = body.split(",");
		final int[] runs = new int[parts.length];
		long total = 0;
		long kept = 0;
		for (int i = 0; i < parts.length; i++) {
			try {
				runs[i] = Integer.parseInt(parts[i].trim());
			}
			catch (final NumberFormatException e) {
				throw new IllegalArgumentException("image.mask has a bad run length '" +
					shorten(parts[i]) + "': the model file is damaged");
			}
			if (runs[i] < 0) throw new IllegalArgumentException(
				"image.mask has a negative run length: the model file is damaged");
			total += runs[i];
			if (i % 2 == 1) kept += runs[i];
		}
		if (total > size) throw new IllegalArgumentException("image.mask covers " + total +
			" pixels but the binned image has only " + size +
			": the model file is damaged");
		final int[] out = new int[(int) kept];
		int pos = 0;
		int k = 0;
		for (int i = 0; i < runs.length; i++) {
			if (i % 2 == 1) for (int r = 0; r < runs[i]; r++)
				out[k++] = pos + r;
			pos += runs[i];
		}
		return out;
	}

	private static String shorten(final String s) {
		if (s == null) return "null";
		return s.length() <= 40 ? s : s.substring(0, 37) + "...";
	}
}
