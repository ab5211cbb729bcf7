package org.cpca.core.family;

import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * A method family: the method it runs, the settings it owns (declared once, with their
 * keys, defaults and ranges, by {@link #keys()}) and its run. Every family is listed once in
 * {@code core.run.Families}; the front ends reach it only through {@code core.run.Settings}
 * (which hands each of the family's keys to its declaration) and {@code MethodRunner}.
 *
 * @param <O> the family's options: one immutable, validated value
 */
public interface Family<O> {

	/** The method this family runs. */
	Method method();

	/** The settings the family owns: their keys, what they accept, and their parsing. */
	OptionKeys<?, O> keys();

	/** Fewest backgrounds the family takes. */
	default int minBackgrounds() {
		return 1;
	}

	/** Most backgrounds the family takes. */
	default int maxBackgrounds() {
		return 1;
	}

	/**
	 * Whether the family runs on each dataset's moments (or the Gram matrix of the stacked
	 * samples) alone, as the cluster front end gives them (docs/spark.md); a family that
	 * needs the samples themselves reads {@link FamilyInput#target()}.
	 */
	default boolean runsFromFit() {
		return true;
	}

	/**
	 * Bytes per N² the family's fit from the Gram matrix of N samples keeps beyond the shared
	 * reduced space's ({@code StreamedGram.fitBytes}; docs/memory.md "Per method"): what the
	 * memory plan adds for it. 0 for a family that lets the shared solver go before the
	 * components are lifted, as cPCA does.
	 */
	default int fitBytesPerN2() {
		return 0;
	}

	/**
	 * Runs the family.
	 *
	 * @throws IllegalArgumentException for options or data that do not fit the family, with
	 *           a message saying what to do
	 */
	Solution run(O options, FamilyInput input);
}
