package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.process.ByteProcessor;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.cpca.analysis.ResultWindows;
import org.cpca.core.result.Method;
import org.cpca.core.family.Family;
import org.cpca.core.run.Families;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;
import org.scijava.command.CommandModule;
import org.scijava.module.Module;
import org.scijava.module.ModuleItem;
import org.scijava.module.ModuleService;
import org.scijava.plugin.Parameter;

/**
 * The two-step dialog in Fiji ({@link DialogSteps}, run in a real SciJava context on the
 * real command modules): after the first step's choice, the harvester's dialog is left
 * with exactly the fields that choice needs.
 */
class DialogStepsTest extends CommandTestBase {

	/** The inputs the second dialog shows after the first step's {@code chosen}. */
	private static Set<String> secondDialog(final Class<?> type,
		final Map<String, Object> chosen)
	{
		final ModuleService modules = context.service(ModuleService.class);
		final Module m = modules.createModule(commands.getCommand(type.getName()));
		for (final ModuleItem<?> item : m.getInfo().inputs())
			if (org.scijava.service.Service.class.isAssignableFrom(item.getType()) || item
				.getType() == org.scijava.Context.class) m.resolveInput(item.getName());
		final TwoStepDialog steps = (TwoStepDialog) (m instanceof CommandModule
			? ((CommandModule) m).getCommand() : m);
		for (final String key : steps.firstStep()) {
			if (chosen.containsKey(key)) m.setInput(key, chosen.get(key));
			m.resolveInput(key); // as the first dialog (or a macro) leaves it
		}
		final DialogSteps p = new DialogSteps();
		context.inject(p);
		p.process(m);
		assertFalse(p.isCanceled());
		final Set<String> open = new TreeSet<>();
		for (final ModuleItem<?> item : m.getInfo().inputs())
			if (!m.isInputResolved(item.getName())) open.add(item.getName());
		return open;
	}

	private static Set<String> common(final String... more) {
		final Set<String> s = new TreeSet<>(Set.of("components", "standardize", "whiten",
			"bin", "seed", "show_images", "show_plots", "show_tables", "save_model"));
		s.addAll(Set.of(more));
		return s;
	}

	@Test
	void theSecondDialogShowsOnlyTheChosenMethodsFields() {
		assertEquals(common("axes", "missing", "alpha_mode", "alpha", "sparsity", "significance",
			"significance_reselect", "bootstrap"), secondDialog(
			ContrastivePcaCommand.class, Map.of("method", "cpca", "background_source", "image",
				"samples", "slices")));
		assertEquals(common("axes", "missing", "beta_mode", "beta", "epsilon", "significance",
			"bootstrap"), secondDialog(
			ContrastivePcaCommand.class, Map.of("method", "star", "background_source", "image",
				"samples", "slices")));
		assertEquals(common("axes", "missing", "alpha_mode", "alpha", "kernel", "gamma", "degree",
			"coef0", "landmarks", "significance", "bootstrap"), secondDialog(ContrastivePcaCommand.class, Map.of("method",
				"kernel", "background_source", "image", "samples", "slices")));
		// several backgrounds: the further images only for UCA and rPCA from images
		assertEquals(common("axes", "missing", "more_backgrounds", "stacked", "k_b",
			"significance", "bootstrap"), secondDialog(
			ContrastivePcaCommand.class, Map.of("method", "rpca", "background_source", "image",
				"samples", "slices")));
		assertEquals(common("stacked", "significance", "bootstrap"), secondDialog(ContrastivePcaCommand.class, Map.of(
			"method", "uca", "background_source", "roi manager", "samples", "pixels")));
		// PCA: no method field; the mask only for background from mask
		assertEquals(common("background_mask", "significance", "bootstrap"), secondDialog(ContrastivePcaCommand.class,
			Map.of("method", "pca", "background_source", "mask", "samples", "pixels")));
	}

	@Test
	void batchShowsTheFurtherBackgroundsOnlyForUcaAndRpca() {
		final Set<String> batch = Set.of("overwrite", "no_plots", "per_file", "axes",
			"labels", "mask", "components", "standardize", "whiten", "bin", "seed");
		final Set<String> cpcapp = new TreeSet<>(batch);
		cpcapp.addAll(Set.of("epsilon", "significance", "bootstrap"));
		assertEquals(cpcapp, secondDialog(BatchCommand.class, Map.of("method", "cpcapp")));
		final Set<String> uca = new TreeSet<>(batch);
		uca.addAll(Set.of("more_backgrounds", "stacked", "significance", "bootstrap"));
		assertEquals(uca, secondDialog(BatchCommand.class, Map.of("method", "uca")));
	}

	@Test
	void onlineCpcaStarShowsTheImageOrTheFolderAsChosen() {
		final Set<String> common = Set.of("components", "beta", "eta", "tau", "epochs",
			"seed", "order", "centring", "standardize", "reference", "bin", "show_images",
			"show_plots", "show_tables", "save_model");
		final Set<String> folderImage = new TreeSet<>(common);
		folderImage.addAll(Set.of("target_folder", "background"));
		assertEquals(folderImage, secondDialog(OnlineCpcaCommand.class, Map.of(
			"target_source", "folder", "background_source", "image")));
		final Set<String> images = new TreeSet<>(common);
		images.addAll(Set.of("target", "background", "axes"));
		assertEquals(images, secondDialog(OnlineCpcaCommand.class, Map.of("target_source",
			"image", "background_source", "image")));
	}

	/**
	 * The whole chain as in Fiji, menu to result: with a dialog-showing harvester in the
	 * context (a scripted stand-in for the Swing one), the first dialog holds only the
	 * first step (inherited method first, as SciJava lists it), the second only what
	 * cPCA* needs, and the command runs with the answers.
	 */
	@Test
	void inFijiTheMenuCommandAsksTheFirstStepThenOnlyTheMethodsFields() throws Exception {
		final ij.ImagePlus t = Synthetic.target(30, 51), b = Synthetic.background(30, 52);
		ScriptedHarvester.dialogs.clear();
		ScriptedHarvester.answers = Map.of("method", "star", "target", t,
			"background_source", "image", "background", b, "samples", "slices", "beta_mode",
			"fixed", "beta", 0.25, "show_images", false, "show_plots", false);
		final Module m;
		try {
			m = start(ContrastivePcaCommand.class, true).get();
		}
		finally {
			ScriptedHarvester.answers = null;
		}
		assertFalse(canceled(m), () -> reason(m));
		assertEquals(2, ScriptedHarvester.dialogs.size(), ScriptedHarvester.dialogs
			.toString());
		assertEquals(java.util.List.of("method", "target", "background_source", "background",
			"samples"), ScriptedHarvester.dialogs.get(0));
		assertEquals(common("axes", "missing", "beta_mode", "beta", "epsilon", "significance",
			"bootstrap"),
			new TreeSet<>(
			ScriptedHarvester.dialogs.get(1)));
		final org.cpca.analysis.Analysis a = ((ContrastivePcaCommand) m.getDelegateObject())
			.analysis();
		assertEquals(Method.STAR, a.solution().method());
		assertEquals(0.25, (Double) a.primary().parameters().get("beta"), 1e-12);
	}

	/**
	 * The method choice offers every registered method but online cPCA* (its own command),
	 * each as its readable name with the code in brackets; a method's fields in the second
	 * dialog are the keys its family declares and the shared ones it reads. A key a family
	 * declares is a dialog field unless it is one of the few advanced keys left to the
	 * command line (so a new family key needs a decision here).
	 */
	@Test
	void theMethodChoiceAndFieldsComeFromTheRegistry() throws Exception {
		final Module dialog = initialized(ContrastivePcaCommand.class);
		final Set<Method> offered = EnumSet.noneOf(Method.class);
		for (final Object c : dialog.getInfo().getInput("method").getChoices()) {
			final String choice = (String) c;
			final String code = MethodCommand.code(choice);
			final Method m = Method.parse(code);
			assertTrue(choice.endsWith(" (" + code + ")") && choice.length() > code.length() +
				4, choice);
			assertTrue(offered.add(m), choice + " offered twice");
			assertEquals(code, MethodCommand.code(code)); // a macro's plain code
		}
		final Set<Method> expected = EnumSet.allOf(Method.class);
		expected.remove(Method.ONLINE);
		assertEquals(expected, offered);
		final Set<String> notInDialog = new TreeSet<>();
		for (final Method m : offered) {
			final Set<String> keys = MethodCommand.methodKeys(m.id);
			assertTrue(keys.containsAll(Families.of(m).keys().names()), m.id);
			for (final String key : keys) {
				assertTrue(Settings.isKey(key), key + " is not a setting");
				if (!hasField(key)) notInDialog.add(key);
			}
		}
		assertEquals(Set.of("beta_count", "betas_returned", "held_out"), notInDialog);
		// a family's key that is a dialog field is hidden for the other methods
		for (final Method m : offered)
			for (final Family<?> other : Families.all())
				for (final String key : other.keys().names())
					if (hasField(key) && !MethodCommand.methodKeys(m.id).contains(key))
						assertTrue(MethodCommand.METHOD_SPECIFIC.contains(key), key);
	}

	/**
	 * Every dialog field a family declares holds a default and offers choices that the
	 * family's declaration accepts (the dialog cannot offer what the run would refuse): a
	 * field's {@code KeyField} is checked against the key's parser.
	 */
	@Test
	void theFamilyFieldsDefaultsAndChoicesAreAcceptedByTheirDeclarations() throws Exception {
		final Module dialog = initialized(ContrastivePcaCommand.class);
		int checked = 0;
		for (final Family<?> family : Families.all())
			for (final String key : family.keys().names()) {
				if (!hasField(key)) continue;
				final ModuleItem<?> item = dialog.getInfo().getInput(key);
				family.keys().check(key, String.valueOf(dialog.getInput(key)), key + "=");
				family.keys().check(key, String.valueOf(item.getDefaultValue()), key + "=");
				if (item.getChoices() != null) for (final Object choice : item.getChoices())
					family.keys().check(key, String.valueOf(choice), key + "=");
				checked++;
			}
		assertTrue(checked >= 12, "only " + checked + " family fields checked");
	}

	private static boolean hasField(final String key) {
		try {
			return MethodCommand.class.getDeclaredField(key).isAnnotationPresent(
				Parameter.class);
		}
		catch (final NoSuchFieldException e) {
			return false;
		}
	}

	/** The readable choice and the plain code run the same method. */
	@Test
	void aRecordedChoiceAndThePlainCodeBothRun() throws Exception {
		for (final String given : new String[] { "cPCA* (star)", "star", " STAR " }) {
			final Map<String, Object> in = ContrastivePcaCommandTest.defaults();
			in.put("target", Synthetic.target(30, 61));
			in.put("background", Synthetic.background(30, 62));
			in.put("method", given);
			in.put("beta_mode", "fixed");
			in.put("beta", 0.25);
			in.put("show_images", false);
			in.put("show_plots", false);
			in.put("show_tables", false);
			final Module m = start(ContrastivePcaCommand.class, false, in).get();
			assertFalse(canceled(m), () -> given + ": " + reason(m));
			final org.cpca.analysis.Analysis a = ((ContrastivePcaCommand) m
				.getDelegateObject()).analysis();
			assertEquals(Method.STAR, a.solution().method(), given);
		}
	}

	private static ImagePlus image(final String title, final boolean result) {
		final ImagePlus imp = new ImagePlus(title, new ByteProcessor(2, 2));
		return result ? ResultWindows.mark(imp) : imp;
	}

	/** A fresh Contrastive PCA... module, its services resolved. */
	private static Module contrastivePca() {
		final Module m = context.service(ModuleService.class).createModule(commands
			.getCommand(ContrastivePcaCommand.class.getName()));
		for (final ModuleItem<?> item : m.getInfo().inputs())
			if (org.scijava.service.Service.class.isAssignableFrom(item.getType()) || item
				.getType() == org.scijava.Context.class) m.resolveInput(item.getName());
		return m;
	}

	/**
	 * Fiji's first dialog after Sample Data and a run: the target defaults to the user's
	 * image even when a result window is the current one, the background to the other
	 * open image (was none), the mask stays empty.
	 */
	@Test
	void fijiDefaultsTheBackgroundToTheOtherImageAndNeverTheTargetToAResult() {
		final ImagePlus target = image("target.tif", false), background = image(
			"background.tif", false), scatter = image("cPCA scatter plot of target.tif", true);
		final Module m = contrastivePca();
		DialogSteps.defaultImages(m, OpenImages.ordered(List.of(target, background, scatter),
			scatter));
		assertSame(target, m.getInput("target"));
		assertSame(background, m.getInput("background"));
		assertNull(m.getInput("background_mask"));
		// a target given already (a macro, or the user's last choice) keeps its image; the
		// background takes another one
		final Module given = contrastivePca();
		given.setInput("target", background);
		given.resolveInput("target");
		DialogSteps.defaultImages(given, OpenImages.ordered(List.of(target, background),
			target));
		assertSame(background, given.getInput("target"));
		assertSame(target, given.getInput("background"));
		// one image open: the target takes it, the background stays empty
		final Module one = contrastivePca();
		DialogSteps.defaultImages(one, OpenImages.ordered(List.of(target), target));
		assertSame(target, one.getInput("target"));
		assertNull(one.getInput("background"));
	}
}
