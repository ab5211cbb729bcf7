package org.cpca.core.pcpca;

import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * PCPCA at the shared α (fixed only): no settings of its own; docs/math/pcpca.md. With
 * missing values kept ({@code --missing model}) the runner calls {@link
 * PcpcaRun#runMissing} instead, on the values with their NaNs.
 */
public final class PcpcaFamily implements Family<PcpcaFamily.Options> {

	/** PCPCA has no settings of its own. */
	public static final class Options {

		private Options() {}
	}

	private static final OptionKeys<Options, Options> KEYS = OptionKeys.none(new Options());

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
		return PcpcaRun.run(input.fit(false), input.alpha());
	}
}
