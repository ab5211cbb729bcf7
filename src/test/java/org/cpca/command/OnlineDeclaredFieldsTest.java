package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.cpca.core.family.KeyField;
import org.cpca.core.family.SharedKeyFields;
import org.cpca.core.online.OnlineFamily;
import org.cpca.core.online.OnlineOptions;
import org.cpca.core.result.Method;
import org.cpca.core.run.Families;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;
import org.scijava.module.Module;

/**
 * Online cPCA star…'s method settings come from online cPCA*'s declarations ({@link
 * DeclaredFields#of(Method, String)}: {@code OnlineFamily}'s keys, and the shared settings
 * it reads with its own meaning), in a real SciJava context: the module items Fiji's dialog
 * shows carry the declared label, help text, default, range and choices, the fields start
 * at the declared default, and the annotations hold none of these.
 */
class OnlineDeclaredFieldsTest extends CommandTestBase {

	/** The family's keys the dialog leaves to the command line and the macro extension. */
	private static final Set<String> LEFT_TO_THE_COMMAND_LINE = Set.of("checkpoints");

	private static KeyField declared(final String key) {
		return DeclaredFields.of(Method.ONLINE, key);
	}

	@Test
	void theDialogShowsEachKeysDeclaration() throws Exception {
		final Module dialog = initialized(OnlineCpcaCommand.class);
		final List<String> keys = new ArrayList<>();
		for (final Field f : OnlineCpcaCommand.DECLARED.fields()) {
			final String key = f.getName();
			keys.add(key);
			DeclaredFieldsTest.assertDeclared(dialog, f, declared(key));
		}
		assertEquals(List.of("components", "beta", "eta", "tau", "epochs", "seed", "order",
			"centring", "standardize", "reference"), keys);
	}

	/** What the user sees, spelled out once (the dialog as it was before the declarations). */
	@Test
	void theDialogIsTheOneUsersKnow() throws Exception {
		final Module dialog = initialized(OnlineCpcaCommand.class);
		assertEquals("η (step size)", dialog.getInfo().getInput("eta").getLabel());
		assertEquals(OnlineOptions.DEFAULT_ETA, dialog.getInput("eta"));
		assertEquals(0.0, dialog.getInfo().getInput("eta").getMinimumValue());
		assertEquals(OnlineOptions.DEFAULT_TAU, dialog.getInput("tau"));
		assertEquals(OnlineOptions.DEFAULT_EPOCHS, dialog.getInput("epochs"));
		assertEquals(1, dialog.getInfo().getInput("epochs").getMinimumValue());
		assertEquals("auto", dialog.getInput("beta"));
		assertEquals("β", dialog.getInfo().getInput("beta").getLabel());
		assertEquals(List.of("shuffled", "sequential"), dialog.getInfo().getInput("order")
			.getChoices());
		assertEquals(List.of("running", "pass"), dialog.getInfo().getInput("centring")
			.getChoices());
		assertEquals("running", dialog.getInput("centring"));
		assertEquals(List.of("auto", "offline", "none"), dialog.getInfo().getInput(
			"reference").getChoices());
		assertEquals("Standardize (needs centring pass)", dialog.getInfo().getInput(
			"standardize").getLabel());
		assertEquals("Components (k)", dialog.getInfo().getInput("components").getLabel());
		assertEquals(1, dialog.getInfo().getInput("components").getMinimumValue());
		assertEquals(2, dialog.getInput("components"));
		assertEquals(0L, dialog.getInput("seed"));
	}

	/**
	 * Online cPCA*'s β, seed and standardize mean something of their own: its dialog shows
	 * its family's fields for them, not the shared ones Contrastive PCA… shows; components
	 * means the same and is the shared field.
	 */
	@Test
	void theOnlineMeaningsAreTheFamilysOwnFields() throws Exception {
		final Module online = initialized(OnlineCpcaCommand.class);
		final Module offline = initialized(ContrastivePcaCommand.class);
		for (final String key : List.of("beta", "seed", "standardize")) {
			assertNotEquals(SharedKeyFields.of(key), declared(key), key);
			assertEquals(Families.of(Method.ONLINE).keys().field(key), declared(key), key);
			assertEquals(DeclaredFields.of(key).label(), offline.getInfo().getInput(key)
				.getLabel(), key);
		}
		assertNotEquals(online.getInfo().getInput("beta").getLabel(), offline.getInfo()
			.getInput("beta").getLabel());
		assertNotEquals(online.getInfo().getInput("seed").getDescription(), offline.getInfo()
			.getInput("seed").getDescription());
		assertEquals(SharedKeyFields.of("components"), declared("components"));
	}

	/**
	 * Every key online cPCA* declares is a field of the dialog, or one of the few left to the
	 * command line (so a new online key needs a decision here); every field's default and
	 * choices are accepted by {@link Settings} for method online, and its default is the
	 * settings' own.
	 */
	@Test
	void everyOnlineKeyIsAFieldWhoseDefaultTheSettingsAccept() throws Exception {
		final Set<String> fields = new TreeSet<>();
		for (final Field f : OnlineCpcaCommand.DECLARED.fields())
			fields.add(f.getName());
		final Set<String> notInDialog = new TreeSet<>(Families.of(Method.ONLINE).keys()
			.names());
		notInDialog.removeAll(fields);
		assertEquals(LEFT_TO_THE_COMMAND_LINE, notInDialog);
		final String defaults = online(Settings.builder().set("method", "online").build());
		for (final String key : fields) {
			final KeyField k = declared(key);
			assertNotNull(k, key);
			assertEquals(defaults, online(Settings.builder().set("method", "online").set(key, k
				.initial()).build()), key + "'s declared default");
			for (final String choice : k.choices())
				Settings.builder().set("method", "online").set(key, choice).build();
		}
	}

	/** The online run's options and the reference as text. */
	private static String online(final Settings s) {
		final OnlineOptions o = s.onlineOptions();
		return o.components() + " " + o.beta() + " " + o.eta() + " " + o.tau() + " " + o
			.epochs() + " " + o.seed() + " " + o.order() + " " + o.centring() + " " + o
				.standardize() + " " + o.checkpoints() + " " + s.options(
					OnlineFamily.Options.class).reference() + " " + s.asText();
	}
}
