package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.cpca.command.ApplyModelCommand;
import org.cpca.command.BatchCommand;
import org.cpca.command.ContrastivePcaCommand;
import org.cpca.command.ExploreAlphaCommand;
import org.cpca.command.MethodCommand;
import org.cpca.command.OnlineCpcaCommand;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;
import org.scijava.ItemIO;
import org.scijava.plugin.Parameter;

import picocli.CommandLine;

/**
 * One vocabulary: every setting has one name, used as the Fiji parameter and macro key
 * (snake_case) and as the command line's flag (the same words in kebab-case), and every
 * front end parses it with {@link Settings}.
 */
class VocabularyTest {

	/** Fiji parameters with no command-line flag, and why. */
	private static final Set<String> FIJI_ONLY = new HashSet<>(Arrays.asList(
		// where the background comes from among open images, ROIs and selections
		"background_source", "background_mask", "more_backgrounds", "samples",
		// online cPCA*'s inputs as open images or folders (the CLI takes paths)
		"target_source", "target_folder", "background_folder",
		// what to show and where to save a model from a dialog
		"show_images", "show_plots", "show_tables", "save_model", "show_reconstruction",
		"show_background_removed", "show_scores",
		// Batch…: one run per file (the CLI is scripted per file instead)
		"per_file",
		// Apply Model…: the CLI's apply names these --model and --input too
		"model", "input"));

	private static Set<String> flags(final Object command) {
		final Set<String> out = new HashSet<>();
		// cpca fit as Main makes it: with the flags of the settings no one declares by hand
		final CommandLine cl = command instanceof FitCommand ? Main.commandLine()
			.getSubcommands().get("fit") : new CommandLine(command);
		for (final CommandLine.Model.OptionSpec o : cl.getCommandSpec().options())
			out.addAll(Arrays.asList(o.names()));
		return out;
	}

	private static List<String> fijiInputs(final Class<?> command) {
		final List<String> out = new ArrayList<>();
		for (Class<?> c = command; c != null && c != Object.class; c = c.getSuperclass())
			for (final Field f : c.getDeclaredFields()) {
				final Parameter p = f.getAnnotation(Parameter.class);
				if (p == null || p.type() == ItemIO.OUTPUT || org.scijava.service.Service.class
					.isAssignableFrom(f.getType()) || f.getType() == org.scijava.Context.class)
					continue;
				out.add(f.getName());
			}
		return out;
	}

	@Test
	void everySettingIsACommandLineFlag() {
		final Set<String> fit = flags(new FitCommand());
		for (final String key : Settings.keys())
			assertTrue(fit.contains("--" + key.replace('_', '-')), "cpca fit has no --" + key
				.replace('_', '-') + " for the setting " + key);
	}

	@Test
	void fijiParametersUseTheCommandLinesNames() {
		final Set<String> fit = flags(new FitCommand()), apply = flags(new ApplyCommand());
		for (final Class<?> c : Arrays.asList(ContrastivePcaCommand.class, BatchCommand.class,
			OnlineCpcaCommand.class, ExploreAlphaCommand.class, ApplyModelCommand.class))
			for (final String name : fijiInputs(c)) {
				if (FIJI_ONLY.contains(name)) continue;
				final String flag = "--" + name.replace('_', '-');
				assertTrue(fit.contains(flag) || apply.contains(flag), c.getSimpleName() + "'s " +
					name + " has no command-line flag " + flag);
			}
	}

	/** The method settings are declared once, and each is a Settings key. */
	@Test
	void methodParametersAreSettingsKeys() {
		final Set<String> keys = new HashSet<>(Settings.keys());
		final List<String> declared = fijiInputs(MethodCommand.class);
		declared.remove("bin"); // how images are read, not a method setting
		for (final String name : declared)
			assertTrue(keys.contains(name), name + " is not a Settings key");
		assertEquals(new HashSet<>(declared).size(), declared.size());
		for (final Class<?> c : Arrays.asList(ContrastivePcaCommand.class, BatchCommand.class))
			for (final Field f : c.getDeclaredFields())
				assertTrue(!keys.contains(f.getName()), c.getSimpleName() + " declares " + f
					.getName() + " again: it is inherited from MethodCommand");
	}

	/** A flag, a key and the typed builder give the same settings. */
	@Test
	void flagsAndKeysParseAlike() {
		final Settings a = Settings.builder(Settings.Style.FLAG).set("alpha", "2.5").set(
			"components", "3").set("method", "cpca").build();
		final Settings b = Settings.builder().set("alpha_mode", "fixed").set("alpha", 2.5).set(
			"components", 3).build();
		assertEquals(a.alpha(), b.alpha());
		assertEquals(a.components(), b.components());
		assertEquals(a.alpha().value(), 2.5, 0);
	}
}
