package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cpca.KeyScenarios;
import org.cpca.core.TestData;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine.Model.OptionSpec;

/**
 * Every setting {@code cpca fit} accepts as a flag reaches the run: a value other than the
 * default ({@link KeyScenarios}) changes the results folder's summary or scores.
 */
class CliKeysReachTheRunTest {

	@TempDir
	static Path dir;

	@BeforeAll
	static void tables() throws IOException {
		final float[][][] p = TestData.planted(5, 60, 50, 12, 3, 2, 0.3);
		write(dir.resolve("target.csv"), p[0]);
		write(dir.resolve("background.csv"), p[1]);
		write(dir.resolve("background-2.csv"), TestData.planted(6, 60, 40, 12, 3, 2, 0.3)[1]);
	}

	private static void write(final Path f, final float[][] rows) throws IOException {
		final StringBuilder sb = new StringBuilder();
		for (int j = 0; j < rows[0].length; j++)
			sb.append(j == 0 ? "" : ",").append("f").append(j + 1);
		sb.append('\n');
		for (final float[] r : rows) {
			for (int j = 0; j < r.length; j++)
				sb.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.9g", r[j]));
			sb.append('\n');
		}
		Files.write(f, sb.toString().getBytes(StandardCharsets.UTF_8));
	}

	private static int runs;

	/** The summary (without timings) and scores of a fit with these settings. */
	private static String fit(final Map<String, String> keys, final int backgrounds)
		throws IOException
	{
		final Path out = dir.resolve("out" + runs++);
		final List<String> args = new ArrayList<>(List.of("fit", "--target", dir.resolve(
			"target.csv").toString(), "--background", dir.resolve("background.csv").toString(),
			"--no-plots", "--out", out.toString()));
		if (backgrounds == 2) args.addAll(List.of("--background", dir.resolve(
			"background-2.csv").toString()));
		for (final Map.Entry<String, String> e : keys.entrySet()) {
			args.add(Settings.Style.FLAG.name(e.getKey()));
			if (!isSwitch(e.getKey())) args.add(e.getValue());
			else assertEquals("true", e.getValue(), e.getKey());
		}
		final Object[] r = CliTest.cpca(args.toArray(new String[0]));
		assertEquals(0, r[0], args + ": " + r[2]);
		final String summary = new String(Files.readAllBytes(out.resolve("summary.json")),
			StandardCharsets.UTF_8).replaceAll("(?s)\"timings_s\": \\{[^}]*\\}", "");
		return summary + new String(Files.readAllBytes(out.resolve("scores.csv")),
			StandardCharsets.UTF_8);
	}

	private static final List<String> FLAGS = new ArrayList<>();
	private static final List<String> SWITCHES = new ArrayList<>();
	static {
		for (final OptionSpec o : Main.commandLine().getSubcommands().get("fit")
			.getCommandSpec().options())
			if (Settings.isKey(o.longestName())) {
				final String key = Settings.canonical(o.longestName());
				FLAGS.add(key);
				if (o.arity().max == 0) SWITCHES.add(key);
			}
	}

	private static boolean isSwitch(final String key) {
		return SWITCHES.contains(key);
	}

	@Test
	void everySettingFlagChangesTheRun() throws IOException {
		KeyScenarios.requireAll();
		assertTrue(FLAGS.size() >= 30, "flags found: " + FLAGS);
		for (final String key : FLAGS) {
			final KeyScenarios.Scenario s = KeyScenarios.of(key);
			assertNotEquals(fit(s.base, s.backgrounds), fit(s.with(key), s.backgrounds), Settings
				.Style.FLAG.name(key) + " " + s.value + " did not reach the run");
		}
	}
}
