package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.cpca.core.result.Method;
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
		final TwoStepDialog steps = (TwoStepDialog) ((CommandModule) m).getCommand();
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
			"coef0", "landmarks", "significance"), secondDialog(ContrastivePcaCommand.class, Map.of("method",
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
		final CommandModule m;
		try {
			m = commands.run(ContrastivePcaCommand.class, true).get();
		}
		finally {
			ScriptedHarvester.answers = null;
		}
		assertFalse(m.isCanceled(), () -> m.getCancelReason());
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

	/** Every method of the dialog has its list, and every listed key is a parameter. */
	@Test
	void theMethodListsCoverEveryMethodAndSetting() throws Exception {
		final Field method = MethodCommand.class.getDeclaredField("method");
		final Set<String> offered = new HashSet<>(java.util.Arrays.asList(method
			.getAnnotation(Parameter.class).choices()));
		assertEquals(offered, MethodCommand.METHOD_KEYS.keySet());
		final Set<String> listed = new HashSet<>();
		MethodCommand.METHOD_KEYS.values().forEach(listed::addAll);
		assertEquals(MethodCommand.METHOD_SPECIFIC, listed);
		for (final String key : listed) {
			assertTrue(Settings.isKey(key), key + " is not a setting");
			assertTrue(MethodCommand.class.getDeclaredField(key).isAnnotationPresent(
				Parameter.class), key);
		}
		for (final String m : offered)
			Method.parse(m); // a method the core knows
	}
}
