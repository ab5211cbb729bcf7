package org.cpca.core.star;

import org.cpca.core.family.Choice;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.KeyField;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.family.Parse;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * cPCA*: a fixed β or automatic β (the shared β of the settings), the automatic β grid
 * ({@code beta_count}, {@code betas_returned}) and ε of the regularisation at β = 1
 * ({@code epsilon}); docs/math/star.md.
 */
public final class StarFamily implements Family<StarFamily.Options> {

	/** cPCA*'s own settings. */
	public static final class Options {

		private final int betaCount, betasReturned;
		private final double epsilon;

		private Options(final Builder b) {
			betaCount = b.betaCount;
			betasReturned = b.betasReturned;
			epsilon = b.epsilon;
		}

		/** Automatic β: the number of grid values strictly between 0 and 1. */
		public int betaCount() {
			return betaCount;
		}

		/** Automatic β: the number of β values returned, β = 0 included. */
		public int betasReturned() {
			return betasReturned;
		}

		/** ε of the regularisation at β = 1; NaN: {@link CpcaStar#DEFAULT_REGULARIZATION}. */
		public double epsilon() {
			return epsilon;
		}
	}

	private static final class Builder {

		int betaCount = 40, betasReturned = 4;
		double epsilon;
	}

	/** What {@code epsilon} accepts (cPCA* and cPCA++). */
	static final String EPSILON_ACCEPTS = "auto (0) or a value > 0, e.g. 1e-6";

	/** The dialog field of {@code epsilon} (cPCA* and cPCA++). */
	static final KeyField EPSILON_FIELD = KeyField.of("ε (cPCA++, cPCA* at β = 1; 0 = auto)",
		"0", "The background covariance is regularised as C_b + δI, δ = ε·trace(C_b)/d. 0 " +
			"(auto): cPCA++ chooses ε by the Ledoit–Wolf shrinkage of C_b, cPCA* at β = 1 " +
			"uses 1e-6 on a singular C_b.").min(0).style("format:0.##E0");

	private static final OptionKeys<Builder, Options> KEYS = OptionKeys.of(Builder::new,
		Options::new).key("beta_count", "a whole number ≥ 1", (b, t, k) -> b.betaCount = Parse
			.whole(t, k, 1)).key("betas_returned", "a whole number ≥ 2 (β = 0 and one more)",
				(b, t, k) -> b.betasReturned = Parse.whole(t, k, 2)).key("epsilon",
					StarFamily.EPSILON_ACCEPTS, EPSILON_FIELD, (b, t, k) -> b.epsilon = epsilon(t, k));

	/**
	 * ε from text (cPCA* at β = 1 and cPCA++): "auto" or 0 (NaN: automatic) or a value
	 * &gt; 0.
	 */
	static double epsilon(final String t, final String k) {
		if (t.trim().equalsIgnoreCase("auto")) return Double.NaN;
		final double v = Parse.number(t, k);
		if (!(v >= 0) || Double.isInfinite(v)) throw new IllegalArgumentException(Choice.name(
			k) + " must be auto (or 0) or > 0 (got " + t + "): the regularisation δ = " +
			"ε·trace(C_b)/d of the background covariance, e.g. 1e-6");
		return v == 0 ? Double.NaN : v;
	}

	/**
	 * cPCA*'s β-solver keeps the prepared solver while the components are lifted
	 * (docs/memory.md "Per method").
	 */
	@Override
	public int fitBytesPerN2() {
		return 16;
	}

	@Override
	public Method method() {
		return Method.STAR;
	}

	@Override
	public OptionKeys<?, Options> keys() {
		return KEYS;
	}

	@Override
	public Solution run(final Options o, final FamilyInput input) {
		return StarRun.star(input.fit(false), input.beta(), o.epsilon, o.betaCount,
			o.betasReturned, input.progress());
	}
}
