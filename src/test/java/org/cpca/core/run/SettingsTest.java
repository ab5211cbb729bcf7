package org.cpca.core.run;

import org.cpca.core.family.Choice;
import org.cpca.core.result.Method;
import org.cpca.core.rpca.RpcaFamily;
import org.cpca.core.star.StarFamily;

import static org.cpca.core.TestData.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** One parser and one validator for every setting, whatever the front end. */
class SettingsTest {

	@Test
	void choicesParseAutoValuesAndInfinity() {
		assertTrue(Choice.parse("auto", Choice.Range.ALPHA, "alpha=").isAuto());
		assertTrue(Choice.parse("inf", Choice.Range.ALPHA, "alpha=").isInfinite());
		assertTrue(Choice.parse("∞", Choice.Range.ALPHA, "alpha=").isInfinite());
		assertEquals(2.5, Choice.parse(" 2.5 ", Choice.Range.ALPHA, "alpha=").value(), 0);
		assertEquals(0.0, Choice.parse("-0", Choice.Range.BETA, "beta=").value(), 0);
		assertEquals(Double.doubleToLongBits(0.0), Double.doubleToLongBits(Choice.parse("-0",
			Choice.Range.BETA, "beta=").value()));
		// the dialog's mode and value
		assertTrue(Choice.parse("auto", "7", Choice.Range.ALPHA, "alpha").isAuto());
		assertEquals(7, Choice.parse("fixed", "7", Choice.Range.ALPHA, "alpha").value(), 0);
		assertTrue(Choice.parse("inf", "7", Choice.Range.ALPHA, "alpha").isInfinite());
		assertEquals("auto", Choice.auto().toString());
		assertEquals("inf", Choice.infinite().toString());
		assertEquals("fixed", Choice.of(3).mode());
	}

	@Test
	void badChoicesSayWhatIsAccepted() {
		assertMessage(() -> Choice.parse("-1", Choice.Range.ALPHA, "--alpha "),
			"--alpha must be ≥ 0 (got -1)");
		assertMessage(() -> Choice.parse("two", Choice.Range.ALPHA, "alpha="), "alpha=two",
			"not a number");
		assertMessage(() -> Choice.parse("inf", Choice.Range.BETA, "beta="), "beta=inf",
			"[0, 1]");
		assertMessage(() -> Choice.parse("1.5", Choice.Range.BETA, "beta="),
			"beta must be in [0, 1] (got 1.5)");
		assertMessage(() -> Choice.parse("NaN", Choice.Range.ALPHA, "alpha="),
			"alpha must be ≥ 0 (got NaN, which is not a number)");
		assertMessage(() -> Choice.parse("sometimes", "2", Choice.Range.ALPHA, "alpha"),
			"alpha_mode=sometimes", "auto, fixed or inf");
		assertMessage(() -> Choice.parse("fixed", "auto", Choice.Range.ALPHA, "alpha"),
			"needs a number");
	}

	@Test
	void unknownKeysSuggestTheNearest() {
		assertMessage(() -> Settings.builder().set("aplha", "2"), "aplha= is not a setting".replace(
			"=", ""), "did you mean alpha?");
		assertMessage(() -> Settings.builder().set("compnents", "5"), "did you mean components");
		assertMessage(() -> Settings.builder(Settings.Style.FLAG).set("alfa-mode", "auto"),
			"--alfa-mode", "did you mean --alpha-mode");
	}

	@Test
	void wholeNumbersAreWhole() {
		assertMessage(() -> Settings.builder().set("components", "2.7"), "components=2.7",
			"not a whole number");
		assertMessage(() -> Settings.builder().set("components", "4294967298"),
			"out of range");
		assertMessage(() -> Settings.builder().set("components", "0"), "≥ 1");
		assertMessage(() -> Settings.builder().set("whiten", "yes"), "true or false");
		assertEquals(true, Settings.builder().set("whiten", "true").build().whiten());
	}

	@Test
	void settingsForAnotherMethodAreRefusedUnlessLenient() {
		assertMessage(() -> Settings.builder(Settings.Style.FLAG).set("epsilon", "1e-3")
			.build(), "--epsilon applies to --method star and cpcapp only");
		assertMessage(() -> Settings.builder().set("method", "kernel").set("alpha", "inf")
			.build(), "not defined for kernel cPCA");
		// a dialog passes every field
		Settings.builder().lenient().set("epsilon", "1e-3").set("kernel", "poly").build();
		final Settings s = Settings.builder().set("method", "star").set("beta", "0.3").set(
			"epsilon", "1e-3").build();
		assertEquals(0.3, s.beta().value(), 0);
		assertEquals(1e-3, s.options(StarFamily.Options.class).epsilon(), 0);
		assertEquals(Method.STAR, s.method());
	}

	/**
	 * A dialog passes the re-selection box whatever the method: for another method than cPCA
	 * it is ignored (never handed to the significance test, whose refit would then be
	 * cPCA's), and for cPCA a combination that cannot use it is refused.
	 */
	@Test
	void theReselectionBoxCountsForCpcaOnly() {
		for (final String method : new String[] { "gcpca", "pcpca", "star", "pca" })
			assertEquals(false, Settings.builder().lenient().set("method", method).set("alpha",
				"2").set("significance", "9").set("significance_reselect", "true").build()
				.significanceReselect(), method);
		assertMessage(() -> Settings.builder().lenient().set("method", "cpca").set("alpha",
			"2").set("significance", "9").set("significance_reselect", "true").build(),
			"re-selects automatic α");
		assertEquals(true, Settings.builder().lenient().set("method", "cpca").set("alpha",
			"auto").set("significance", "9").set("significance_reselect", "true").build()
			.significanceReselect());
	}

	@Test
	void aliasesAndDefaults() {
		final Settings d = Settings.defaults();
		assertTrue(d.alpha().isAuto() && d.beta().isAuto());
		assertEquals(2, d.components());
		assertEquals(Method.CPCA, d.method());
		final Settings r = Settings.builder().set("method", "rpca").set(
			"background_components", "3,auto").build();
		assertEquals(3, (int) r.options(RpcaFamily.Options.class).backgroundComponents().get(0));
		assertEquals(null, r.options(RpcaFamily.Options.class).backgroundComponents().get(1));
	}
}
