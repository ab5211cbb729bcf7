package org.cpca.core.pcpca;

import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.family.Parse;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * PCPCA at the shared α (fixed only) and the share of the samples held out for the
 * held-out log-likelihood ({@code held_out}); docs/math/pcpca.md. With
 * missing values kept ({@code --missing model}) the runner calls {@link
 * PcpcaRun#runMissing} instead, on the values with their NaNs.
 */
public final class PcpcaFamily implements Family<PcpcaFamily.Options> {

	/** PCPCA's own settings. */
	public static final class Options {

		private final double heldOut;

		private Options(final Builder b) {
			heldOut = b.heldOut;
		}

		/** Share of the samples held out for the held-out log-likelihood (0: none). */
		public double heldOut() {
			return heldOut;
		}
	}

	private static final class Builder {

		double heldOut = PcpcaRun.HELD_OUT;
	}

	private static final OptionKeys<Builder, Options> KEYS = OptionKeys.of(Builder::new,
		Options::new).key("held_out", "a share in [0, 0.5] of the samples held out for the " +
			"held-out log-likelihood (default 0.2; 0: none, no refit)", (b, t, k) -> {
				final double v = Parse.number(t, k);
				if (!(v >= 0 && v <= 0.5)) throw new IllegalArgumentException(k + t +
					" is not a share in [0, 0.5]: e.g. 0.2 (a fifth of the samples), or 0 for " +
					"no held-out log-likelihood");
				b.heldOut = v + 0.0;
			});

	@Override
	public Method method() {
		return Method.PCPCA;
	}

	@Override
	public OptionKeys<?, Options> keys() {
		return KEYS;
	}

	@Override
	public Solution run(final Options options, final FamilyInput input) {
		return PcpcaRun.run(input.fit(false), input.alpha(), options.heldOut);
	}
}
