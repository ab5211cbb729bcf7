package org.cpca.core.star;

import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/** cPCA++: ε of the background's regularisation ({@code epsilon}); docs/math/star.md. */
public final class PlusPlusFamily implements Family<PlusPlusFamily.Options> {

	/** cPCA++'s own settings. */
	public static final class Options {

		private final double epsilon;

		private Options(final Builder b) {
			epsilon = b.epsilon;
		}

		/** ε of the regularisation; NaN: the Ledoit–Wolf shrinkage of C_b (the default). */
		public double epsilon() {
			return epsilon;
		}
	}

	private static final class Builder {

		double epsilon;
	}

	private static final OptionKeys<Builder, Options> KEYS = OptionKeys.of(Builder::new,
		Options::new).key("epsilon", StarFamily.EPSILON_ACCEPTS, StarFamily.EPSILON_FIELD, (b,
			t, k) -> b.epsilon =
			StarFamily.epsilon(t, k));

	@Override
	public Method method() {
		return Method.CPCAPP;
	}

	@Override
	public OptionKeys<?, Options> keys() {
		return KEYS;
	}

	@Override
	public Solution run(final Options o, final FamilyInput input) {
		return StarRun.plusPlus(input.fit(false), o.epsilon);
	}
}
