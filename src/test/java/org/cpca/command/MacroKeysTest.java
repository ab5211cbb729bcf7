package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;

import java.io.File;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scijava.Context;
import org.scijava.command.CommandInfo;
import org.scijava.module.Module;
import org.scijava.module.ModuleItem;
import org.scijava.plugin.Parameter;

/**
 * Every command parameter is a usable macro key: snake_case, with a label and a
 * description, and the option strings built from the parameter names run the commands.
 */
class MacroKeysTest extends CommandTestBase {

	@ParameterizedTest
	@ValueSource(classes = { ContrastivePcaCommand.class, ApplyModelCommand.class,
		BatchCommand.class, OnlineCpcaCommand.class })
	void parametersAreDocumentedSnakeCaseKeys(final Class<?> command) throws Exception {
		assertFalse(MacroOptions.inputs(command).isEmpty());
		// the labels and descriptions the dialog shows: a method setting's from its key's
		// declaration, applied when the module is initialized
		final Module dialog = initialized(command);
		for (final Field f : MacroOptions.inputs(command)) {
			final Parameter p = f.getAnnotation(Parameter.class);
			final ModuleItem<?> item = dialog.getInfo().getInput(f.getName());
			assertTrue(f.getName().matches("[a-z][a-z0-9]*(_[a-z0-9]+)*"), f.getName());
			assertFalse(item.getLabel() == null || item.getLabel().isEmpty(), f.getName() +
				" has no label");
			assertFalse(item.getDescription() == null || item.getDescription().isEmpty(), f
				.getName() + " has no description");
			if (f.getType() == ImagePlus.class) assertFalse(p.persist(), f.getName() +
				" is an image and must not persist");
		}
		// the command is registered with a menu path and these inputs
		final CommandInfo info = commands.getCommand(command.getName());
		assertNotNull(info, command + " is not a registered command");
		assertTrue(info.getMenuPath().getMenuString().startsWith("Plugins > Contrastive PCA"),
			info.getMenuPath().toString());
		final List<String> inputs = new java.util.ArrayList<>();
		for (final ModuleItem<?> item : info.inputs())
			if (!org.scijava.service.Service.class.isAssignableFrom(item.getType()) && item
				.getType() != Context.class) inputs.add(item.getName());
		final List<String> fields = new java.util.ArrayList<>();
		MacroOptions.inputs(command).forEach(f -> fields.add(f.getName()));
		// the dialog's (and the recorder's) order is the fields' order
		assertEquals(fields, inputs);
	}

	@Test
	void optionStringWithEveryKeyRunsContrastivePca(@TempDir final Path tmp)
		throws Exception
	{
		final ImagePlus t = Synthetic.target(30, 11), b = Synthetic.background(30, 12);
		t.setTitle("digits on grass.tif");
		b.setTitle("grass.tif");
		final Map<String, Object> values = ContrastivePcaCommandTest.defaults();
		values.put("target", t);
		values.put("background", b);
		values.put("alpha_mode", "fixed");
		values.put("alpha", 3.5);
		values.put("standardize", true);
		values.put("save_model", tmp.resolve("model.json").toFile());
		final String options = MacroOptions.build(ContrastivePcaCommand.class, values);
		// the method settings are inherited (MethodCommand), so SciJava lists them first
		assertEquals("method=cpca alpha_mode=fixed alpha=3.5 beta_mode=auto beta=0.5 " +
			"epsilon=1.0E-6 kernel=rbf gamma=auto degree=3 coef0=1.0 landmarks=auto k_b=auto " +
			"components=2 standardize bin=1 seed=0 target=[digits on grass.tif] " +
			"background_source=image background=grass.tif more_backgrounds= samples=slices " +
			"missing=drop show_images show_plots show_tables save_model=" + tmp.resolve(
				"model.json"),
			options);
		final Map<String, Object> parsed = MacroOptions.parse(ContrastivePcaCommand.class,
			options, List.of(t, b));
		for (final Field f : MacroOptions.inputs(ContrastivePcaCommand.class))
			assertEquals(values.get(f.getName()) == null && f.getType() == boolean.class
				? false : values.get(f.getName()), parsed.get(f.getName()), f.getName());
		final Module m = start(ContrastivePcaCommand.class, true, parsed)
			.get();
		assertFalse(canceled(m), () -> reason(m));
		assertTrue(Files.isRegularFile(tmp.resolve("model.json")));
		assertEquals(3.5, ((ContrastivePcaCommand) m.getDelegateObject()).analysis()
			.primary().alpha());
		assertThrows(IllegalArgumentException.class, () -> MacroOptions.parse(
			ContrastivePcaCommand.class, options + " alpha_value=3", List.of(t, b)));
	}

	@Test
	void optionStringRunsApplyModel(@TempDir final Path tmp) throws Exception {
		final ImagePlus t = Synthetic.target(30, 13), b = Synthetic.background(30, 14);
		final Map<String, Object> fit = ContrastivePcaCommandTest.defaults();
		fit.put("target", t);
		fit.put("background", b);
		fit.put("alpha_mode", "inf");
		fit.put("save_model", tmp.resolve("m.json").toFile());
		assertFalse(canceled(start(ContrastivePcaCommand.class, true, fit).get()));
		final Map<String, Object> values = new HashMap<>();
		values.put("model", tmp.resolve("m.json").toFile());
		values.put("input", t);
		values.put("show_reconstruction", true);
		values.put("show_background_removed", true);
		values.put("show_scores", true);
		final String options = MacroOptions.build(ApplyModelCommand.class, values);
		final Module m = start(ApplyModelCommand.class, true, MacroOptions
			.parse(ApplyModelCommand.class, options, List.of(t))).get();
		assertFalse(canceled(m), () -> reason(m));
		assertNotNull(m.getOutput("reconstruction"));
	}

	@Test
	void optionStringRunsBatch(@TempDir final Path tmp) throws Exception {
		final File t = BatchCommandTest.save(Synthetic.target(30, 15), tmp.resolve(
			"t.tif"));
		final File b = BatchCommandTest.save(Synthetic.background(30, 16), tmp.resolve(
			"b.tif"));
		final Map<String, Object> values = BatchCommandTest.defaults();
		values.put("target", t);
		values.put("background", b);
		values.put("out", tmp.resolve("out dir").toFile());
		final String options = MacroOptions.build(BatchCommand.class, values);
		assertTrue(options.contains("out=[" + tmp.resolve("out dir") + "]"), options);
		final Module m = start(BatchCommand.class, true, MacroOptions.parse(
			BatchCommand.class, options, List.of())).get();
		assertFalse(canceled(m), () -> reason(m));
		assertTrue(Files.isRegularFile(tmp.resolve("out dir/summary.json")));
	}

	@Test
	void optionStringWithEveryKeyRunsOnlineCpca(@TempDir final Path tmp) throws Exception {
		final ImagePlus t = OnlineCpcaCommandTest.slices("target stack.tif", 21, 120, true);
		final Path folder = Files.createDirectory(tmp.resolve("background images"));
		final ImagePlus b = OnlineCpcaCommandTest.slices("b", 22, 80, false);
		for (int i = 1; i <= 80; i++)
			new ij.io.FileSaver(new ImagePlus("b", b.getStack().getProcessor(i))).saveAsTiff(
				folder.resolve(String.format("b%02d.tif", i)).toString());
		final Map<String, Object> values = OnlineCpcaCommandTest.defaults();
		values.put("target", t);
		values.put("background_source", "folder");
		values.put("background_folder", folder.toFile());
		values.put("epochs", 2);
		values.put("order", "sequential");
		values.put("centring", "pass");
		values.put("reference", "none");
		values.put("show_tables", false);
		values.put("save_model", tmp.resolve("online.json").toFile());
		final String options = MacroOptions.build(OnlineCpcaCommand.class, values);
		assertEquals("target_source=image target=[target stack.tif] background_source=folder " +
			"background_folder=[" + folder + "] components=2 beta=0.8 eta=0.1 tau=1.0 " +
			"epochs=2 seed=0 order=sequential centring=pass reference=none bin=1 show_images " +
			"show_plots save_model=" + tmp.resolve("online.json"), options);
		final Module m = start(OnlineCpcaCommand.class, true, MacroOptions.parse(
			OnlineCpcaCommand.class, options, List.of(t))).get();
		assertFalse(canceled(m), () -> reason(m));
		assertTrue(Files.isRegularFile(tmp.resolve("online.json")));
		assertNotNull(m.getOutput("convergence_plot"));
		assertEquals(2.0, ((OnlineCpcaCommand) m.getDelegateObject()).analysis().model()
			.parameters().get("epochs"));
	}
}
