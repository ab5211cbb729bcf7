package org.cpca.core.cpca;

import java.util.List;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/** PCA of the target: no settings of its own; backgrounds, if any, are not used. */
public final class PcaFamily implements Family<PcaFamily.Options> {

	/** PCA has no settings of its own. */
	public static final class Options {

		private Options() {}
	}

	private static final OptionKeys<Options, Options> KEYS = OptionKeys.none(new Options());

	@Override
	public Method method() {
		return Method.PCA;
	}

	@Override
	public OptionKeys<?, Options> keys() {
		return KEYS;
	}

	@Override
	public int minBackgrounds() {
		return 0;
	}

	@Override
	public int maxBackgrounds() {
		return Integer.MAX_VALUE;
	}

	@Override
	public Solution run(final Options options, final FamilyInput input) {
		final Cpca fit = input.fit(false);
		return Solution.of(Method.PCA, null, List.of(fit.pca()), null, fit);
	}
}
