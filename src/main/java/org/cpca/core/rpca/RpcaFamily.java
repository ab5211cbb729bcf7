package org.cpca.core.rpca;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.family.Choice;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.KeyField;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.family.Parse;
import org.cpca.core.family.SharedKeyFields;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * rPCA: k_b background components removed from each background ({@code k_b}, also
 * {@code background_components}), several backgrounds each on its own or pooled
 * ({@code stacked}); docs/math/rpca.md.
 */
public final class RpcaFamily implements Family<RpcaFamily.Options> {

	/** rPCA's own settings. */
	public static final class Options {

		private final boolean stacked;
		private final List<Integer> backgroundComponents;

		private Options(final Builder b) {
			stacked = b.stacked;
			backgroundComponents = b.backgroundComponents == null ? null : Collections
				.unmodifiableList(new ArrayList<>(b.backgroundComponents));
		}

		/** Several backgrounds pooled into one instead of each on its own (the default). */
		public boolean stacked() {
			return stacked;
		}

		/**
		 * k_b: {@code null} for the log-elbow rule on every background, otherwise one entry
		 * for all backgrounds or one per background, {@code null} entries for the log-elbow
		 * rule, {@link Rpca#SEED_ELBOW} for the original elbow rule.
		 */
		public List<Integer> backgroundComponents() {
			return backgroundComponents;
		}
	}

	private static final class Builder {

		boolean stacked;
		List<Integer> backgroundComponents;
	}

	// the key is k_b, not background_components: ImageJ's Macro.getValue finds a key
	// after an underscore too, so a key ending in another key ("components") is misread
	private static final KeyField K_B = KeyField.of("Background components k_b (rPCA)",
		"auto", "rPCA: k_b, the principal components removed from each background: auto " +
			"(elbow rule), a number, or one value per background (e.g. 3,auto).");

	private static final OptionKeys<Builder, Options> KEYS = OptionKeys.of(Builder::new,
		Options::new).key("stacked", "true or false", SharedKeyFields.STACKED, (b, t,
			k) -> b.stacked = Parse.bool(t, k)).key("k_b", "auto, a number ≥ 0, or one per " +
				"background (e.g. 3,auto)", K_B, (b, t, k) -> b.backgroundComponents =
					parseBackgroundComponents(t, Choice.name(k)));

	/**
	 * k_b from text: "auto" (the log-elbow rule, the default), "elbow" (the original elbow
	 * rule on λ_i), a count ≥ 0 for every background, or comma-separated values, one per
	 * background, each a count, "auto" or "elbow" (e.g. "3,auto").
	 *
	 * @param option how the user gave it, for the message (e.g. "--background-components")
	 * @return {@code null} for "auto"
	 */
	public static List<Integer> parseBackgroundComponents(final String text,
		final String option)
	{
		final String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
		if (s.isEmpty() || s.equals("auto")) return null;
		final List<Integer> out = new ArrayList<>();
		for (final String part : s.split(",")) {
			final String v = part.trim();
			if (v.equals("auto")) {
				out.add(null);
				continue;
			}
			if (v.equals("elbow")) { // the original elbow rule on λ_i (auto: on log λ_i)
				out.add(Rpca.SEED_ELBOW);
				continue;
			}
			final int k;
			try {
				k = Integer.parseInt(v);
			}
			catch (final NumberFormatException e) {
				throw new IllegalArgumentException(option + " " + text + ": '" + v +
					"' is not a whole number: use auto (the log-elbow rule), elbow, a number of " +
					"background components ≥ 0, or one value per background, e.g. 3,auto");
			}
			if (k < 0) throw new IllegalArgumentException(option + " " + text + ": k_b = " +
				k + " is negative: the number of background components to remove must be ≥ " +
				"0 (0 is PCA), or auto");
			out.add(k);
		}
		return out;
	}

	@Override
	public Method method() {
		return Method.RPCA;
	}

	@Override
	public OptionKeys<?, Options> keys() {
		return KEYS;
	}

	@Override
	public int maxBackgrounds() {
		return Integer.MAX_VALUE;
	}

	@Override
	public Solution run(final Options o, final FamilyInput input) {
		final int pooled = input.pooled(o.stacked);
		final Cpca fit = input.fit(pooled > 0);
		return Solution.of(Method.RPCA, null, List.of(Rpca.fit(fit, o.backgroundComponents,
			pooled, input.progress())), null, fit);
	}
}
