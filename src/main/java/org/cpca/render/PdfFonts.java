package org.cpca.render;

import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;

/**
 * The fonts of the PDF figures ({@link Pdf}): three of the 14 standard PDF fonts, which
 * every PDF reader has, so no font is embedded: Helvetica and Helvetica-Bold in
 * WinAnsiEncoding for Latin text, Symbol for Greek letters and mathematical signs
 * (α, β, γ, λ, ∞, ×, −, ≤ …). Their advance widths (Adobe's published metrics, in
 * 1/1000 of the font size) place centred and right-aligned text. A character none of
 * them has is drawn as "?"; superscript digits are drawn as small raised digits.
 */
final class PdfFonts {

	/** The font resources of a page. */
	static final String HELVETICA = "F1", HELVETICA_BOLD = "F2", SYMBOL = "F3";

	/** Advance widths of WinAnsi codes 32–255 in Helvetica (−1: no glyph). */
	private static final int[] REGULAR = widths(
		"278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278," +
			"556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556," +
			"1015,667,667,722,722,667,611,778,722,278,500,667,556,833,722,778," +
			"667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556," +
			"333,556,556,500,556,556,278,556,556,222,222,500,222,833,556,556," +
			"556,556,333,500,278,556,500,722,500,500,500,334,260,334,584,-1," +
			"556,-1,222,556,333,1000,556,556,333,1000,667,333,1000,-1,611,-1," +
			"-1,222,222,333,333,350,556,1000,333,1000,500,333,944,-1,500,667," +
			"278,333,556,556,556,556,260,556,333,737,370,556,584,333,737,333," +
			"400,584,333,333,333,556,537,278,333,333,365,556,834,834,834,611," +
			"667,667,667,667,667,667,1000,722,667,667,667,667,278,278,278,278," +
			"722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611," +
			"556,556,556,556,556,556,889,500,556,556,556,556,278,278,278,278," +
			"556,556,556,556,556,556,556,584,611,556,556,556,556,500,556,500");

	/** Advance widths of WinAnsi codes 32–255 in Helvetica-Bold (−1: no glyph). */
	private static final int[] BOLD = widths(
		"278,333,474,556,556,889,722,238,333,333,389,584,278,333,278,278," +
			"556,556,556,556,556,556,556,556,556,556,333,333,584,584,584,611," +
			"975,722,722,722,722,667,611,778,722,278,556,722,611,833,722,778," +
			"667,778,722,667,611,722,667,944,667,667,611,333,278,333,584,556," +
			"333,556,611,556,611,556,333,611,611,278,278,556,278,889,611,611," +
			"611,611,389,556,333,611,556,778,556,556,500,389,280,389,584,-1," +
			"556,-1,278,556,500,1000,556,556,333,1000,667,333,1000,-1,611,-1," +
			"-1,278,278,500,500,350,556,1000,333,1000,556,333,944,-1,500,667," +
			"278,333,556,556,556,556,280,556,333,737,370,556,584,333,737,333," +
			"400,584,333,333,333,611,556,278,333,333,365,556,834,834,834,611," +
			"722,722,722,722,722,722,1000,722,667,667,667,667,278,278,278,278," +
			"722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611," +
			"556,556,556,556,556,556,889,556,556,556,556,556,278,278,278,278," +
			"611,611,611,611,611,611,611,584,611,611,611,611,611,556,611,556");

	/** Characters the Symbol font draws: each, its code in that font, and its width. */
	private static final String SYMBOL_CHARS =
		"αβγδεζηθικλμνξοπρστυφχψωΓΔΘΛΞΠΣΦΨΩ∞×−≤≥±≈√∑→∈′";
	private static final int[] SYMBOL_CODES = { 0x61, 0x62, 0x67, 0x64, 0x65, 0x7a, 0x68,
		0x71, 0x69, 0x6b, 0x6c, 0x6d, 0x6e, 0x78, 0x6f, 0x70, 0x72, 0x73, 0x74, 0x75, 0x66,
		0x63, 0x79, 0x77, 0x47, 0x44, 0x51, 0x4c, 0x58, 0x50, 0x53, 0x46, 0x59, 0x57, 0xa5,
		0xb4, 0x2d, 0xa3, 0xb3, 0xb1, 0xbb, 0xd6, 0xe5, 0xae, 0xce, 0xa2 };
	private static final int[] SYMBOL_WIDTHS = { 631, 549, 411, 494, 439, 494, 603, 521,
		329, 549, 549, 576, 521, 493, 549, 549, 549, 603, 439, 576, 521, 549, 686, 686, 603,
		612, 741, 686, 645, 768, 592, 763, 795, 768, 713, 549, 549, 549, 549, 549, 549, 549,
		713, 987, 713, 247 };

	/** Superscripts outside WinAnsi, drawn as these characters raised and smaller. */
	static final String SUPERSCRIPTS = "⁰⁴⁵⁶⁷⁸⁹⁻⁺ⁿᵀ", RAISED = "0456789-+nT";

	private static final Charset WIN_ANSI = Charset.forName("windows-1252");

	private PdfFonts() {}

	private static int[] widths(final String csv) {
		final String[] parts = csv.split(",");
		final int[] out = new int[parts.length];
		for (int i = 0; i < parts.length; i++)
			out[i] = Integer.parseInt(parts[i]);
		return out;
	}

	/** One character as drawn: font, code in that font, width, whether raised. */
	static final class Glyph {

		final String font;
		final int code;
		/** In 1/1000 of the font size, at the size the glyph is drawn. */
		final double width;
		final boolean raised;

		Glyph(final String font, final int code, final double width, final boolean raised) {
			this.font = font;
			this.code = code;
			this.width = width;
			this.raised = raised;
		}
	}

	/** Size of a raised glyph relative to the text's. */
	static final double RAISED_SIZE = 0.7;

	/** How {@code ch} is drawn in regular or bold text. */
	static Glyph glyph(final char ch, final boolean bold) {
		final String latin = bold ? HELVETICA_BOLD : HELVETICA;
		final int[] widths = bold ? BOLD : REGULAR;
		final int code = winAnsi(ch);
		if (code >= 32 && widths[code - 32] >= 0) return new Glyph(latin, code,
			widths[code - 32], false);
		final int s = SYMBOL_CHARS.indexOf(ch);
		if (s >= 0) return new Glyph(SYMBOL, SYMBOL_CODES[s], SYMBOL_WIDTHS[s], false);
		final int r = SUPERSCRIPTS.indexOf(ch);
		if (r >= 0) {
			final int c = RAISED.charAt(r);
			return new Glyph(latin, c, widths[c - 32] * RAISED_SIZE, true);
		}
		return new Glyph(latin, '?', widths['?' - 32], false);
	}

	/** The WinAnsi code of {@code ch}, or −1. */
	private static int winAnsi(final char ch) {
		if (ch >= 32 && ch < 127) return ch;
		final CharsetEncoder encoder = WIN_ANSI.newEncoder();
		if (!encoder.canEncode(ch)) return -1;
		return String.valueOf(ch).getBytes(WIN_ANSI)[0] & 0xff;
	}
}
