package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.cpca.core.family.Family;
import org.cpca.core.family.KeyField;
import org.cpca.core.run.Families;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;

/**
 * The shared settings' dialog fields agree with {@link Settings}: each default is the
 * settings' default (α's and β's value fields hold their fixed modes' start values,
 * which the settings ignore in automatic mode), and a family key's field is the one its
 * families declare.
 */
class SharedFieldsTest {

	@Test
	void sharedDefaultsAreTheSettingsDefaults() {
		final String defaults = Settings.defaults().asText().toString();
		for (final String key : List.of("alpha_mode", "beta_mode", "components",
			"standardize", "whiten", "seed", "significance", "bootstrap",
			"significance_reselect"))
			assertEquals(defaults, Settings.builder().lenient().set(key, DeclaredFields.of(key).initial())
				.build().asText().toString(), key);
		// the value fields are read in fixed mode only
		assertEquals(defaults, Settings.builder().lenient().set("alpha", DeclaredFields.of("alpha")
			.initial()).set("alpha_mode", "auto").set("beta", DeclaredFields.of("beta").initial())
			.set("beta_mode", "auto").build().asText().toString());
		final String method = DeclaredFields.of("method").initial();
		assertTrue(method.endsWith("(" + Settings.defaults().method().id + ")"), method);
	}

	@Test
	void aFamilyKeysFieldIsItsDeclarations() {
		int fields = 0;
		for (final Family<?> f : Families.all())
			for (final String key : f.keys().names()) {
				final KeyField k = f.keys().field(key);
				if (k == null) continue;
				assertEquals(k, DeclaredFields.of(key), key);
				assertNotNull(k.label(), key);
				fields++;
			}
		assertTrue(fields >= 13, fields + " family fields");
	}
}
