package org.cpca.core.uca;


import org.cpca.core.contrast.Cpca;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.family.Parse;
import org.cpca.core.family.SharedKeyFields;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * UCA: one or several backgrounds, each on its own or pooled ({@code stacked});
 * docs/math/uca.md.
 */
public final class UcaFamily implements Family<UcaFamily.Options> {

	/** UCA's own settings. */
	public static final class Options {

		private final boolean stacked;

		private Options(final Builder b) {
			stacked = b.stacked;
		}

		/** Several backgrounds pooled into one instead of each on its own (the default). */
		public boolean stacked() {
			return stacked;
		}
	}

	private static final class Builder {

		boolean stacked;
	}

	private static final OptionKeys<Builder, Options> KEYS = OptionKeys.of(Builder::new,
		Options::new).key("stacked", "true or false", SharedKeyFields.STACKED, (b, t, k) -> b.stacked =
			Parse.bool(t, k));

	@Override
	public Method method() {
		return Method.UCA;
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
		return Uca.solution(fit, pooled, input.progress());
	}
}
