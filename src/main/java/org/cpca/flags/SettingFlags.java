package org.cpca.flags;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.cpca.core.result.Method;
import org.cpca.core.run.Settings;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The flags of the settings that no command line declares by hand: one per key of
 * {@link Settings} (a family's own setting, declared only in its package), in kebab-case,
 * with the methods it applies to and what it accepts as its help. {@link
 * LinearMethodFlags#settings()} reads them as it reads every other settings flag.
 */
public final class SettingFlags {

	private SettingFlags() {}

	/**
	 * Adds to {@code spec} a flag for every setting it has none for and that applies to a
	 * method {@code runs} accepts.
	 *
	 * @param moments the command fits moments only: no flag for a setting that needs the
	 *          samples ({@link Settings#needsSamples})
	 */
	public static void add(final CommandSpec spec, final Predicate<Method> runs,
		final boolean moments)
	{
		final Set<String> have = new HashSet<>();
		for (final OptionSpec o : spec.options())
			for (final String name : o.names())
				have.add(Settings.canonical(name));
		for (final String key : Settings.keys()) {
			if (have.contains(key) || moments && Settings.needsSamples(key)) continue;
			final List<String> ids = new ArrayList<>();
			for (final Method m : Settings.methodsOf(key))
				if (runs.test(m)) ids.add(m.id);
			if (ids.isEmpty()) continue;
			spec.addOption(OptionSpec.builder(Settings.Style.FLAG.name(key)).paramLabel("VALUE")
				.type(String.class).description("--method " + String.join(", ", ids) + ": " +
					Settings.accepts(key) + ".").build());
		}
	}
}
