package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.io.FileSaver;
import ij.measure.ResultsTable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example macro in {@code plugins/Scripts/Plugins/Contrastive_PCA/Examples/} runs on small
 * stacks laid out like {@code test-images/} (target.tif with slice labels 0/1,
 * background.tif). Headless, {@code setBatchMode("exit and display")} (which opens
 * windows) is left out. A macro passes only if ImageJ saw no error (see
 * {@link MacroRunner}) and its log holds nothing but what its own {@code print}
 * statements write: in headless ImageJ a failed command or an error message ("File
 * not found", ...) is a line in the log, and the macro carries on.
 */
class ExampleMacrosTest {

	/**
	 * The lines a run over 3 s leaves in ImageJ's Log ({@code IjProgress}): how long a run
	 * takes depends on the machine's load, so they may or may not be there.
	 */
	private static final Pattern PROGRESS = Pattern.compile(
		"Contrastive PCA: (.+, \\d+ %|done in \\d+ (s|min \\d+ s|h \\d+ min))");


	static final Path FOLDER = Paths.get("plugins/Scripts/Plugins/Contrastive_PCA/Examples");

	@TempDir
	static Path images;

	@BeforeAll
	static void writeImages() {
		assertTrue(new FileSaver(CpcaMacroFunctionsTest.stack("target.tif", 40, 41, true))
			.saveAsTiffStack(images.resolve("target.tif").toString()));
		assertTrue(new FileSaver(CpcaMacroFunctionsTest.stack("background.tif", 40, 42,
			false)).saveAsTiffStack(images.resolve("background.tif").toString()));
	}

	static List<String> macros() throws IOException {
		try (Stream<Path> s = Files.list(FOLDER)) {
			return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".ijm"))
				.sorted().collect(Collectors.toList());
		}
	}

	private static String text(final String name) throws IOException {
		return new String(Files.readAllBytes(FOLDER.resolve(name)), StandardCharsets.UTF_8)
			.replace("setBatchMode(\"exit and display\");", "");
	}

	@Test
	void thereAreExamplesForTheWorkflows() throws IOException {
		assertEquals(List.of("Apply_Saved_Model.ijm", "Auto_Then_Chosen_Alpha.ijm",
			"Batch_Folder.ijm", "Compare_Methods.ijm", "ROI_As_Background.ijm",
			"Two_Stacks.ijm"), macros());
	}

	/**
	 * One pattern per {@code print(...)} statement of the macro: the string literals of
	 * its expression in order (not those inside function calls, such as
	 * {@code getDirectory("temp")}), anything between and around them.
	 */
	static List<Pattern> printPatterns(final String macro) {
		final List<Pattern> patterns = new ArrayList<>();
		final Matcher print = Pattern.compile("(?m)\\bprint\\((.*)\\);\\s*(?://.*)?$")
			.matcher(macro);
		while (print.find()) {
			final String expr = print.group(1);
			final StringBuilder sb = new StringBuilder(".*");
			boolean any = false;
			int depth = 0;
			for (int i = 0; i < expr.length(); i++) {
				final char c = expr.charAt(i);
				if (c == '(' || c == '[') depth++;
				else if (c == ')' || c == ']') depth--;
				else if (c == '"') {
					final int start = ++i;
					while (i < expr.length() && expr.charAt(i) != '"')
						i += expr.charAt(i) == '\\' ? 2 : 1;
					if (depth == 0) {
						sb.append(Pattern.quote(expr.substring(start, i))).append(".*");
						any = true;
					}
				}
			}
			assertTrue(any, "print without text in the example: " + print.group());
			patterns.add(Pattern.compile(sb.toString()));
		}
		return patterns;
	}

	@Test
	void printPatternsMatchOnlyWhatAMacroPrints() {
		final List<Pattern> p = printPatterns("x = 1;\nprint(n + \" pixels; eigenvalues \" + ev);" +
			"\n\tprint(\"α = \" + a[i] + \": done\"); // comment\n" +
			"print(\"saved to \" + getDirectory(\"temp\") + \"m.json\");\n");
		assertEquals(3, p.size());
		assertTrue(p.get(2).matcher("saved to /tmp/junit-1/m.json").matches());
		assertTrue(!p.get(2).matcher("saved to /tmp/junit-1/x.json").matches());
		assertTrue(p.get(0).matcher("120 pixels; eigenvalues 1,2").matches());
		assertTrue(p.get(1).matcher("α = 2.5: done").matches());
		assertTrue(!p.get(0).matcher("java.awt.HeadlessException").matches());
		assertTrue(!p.get(1).matcher("File not found: /x/target.tif").matches());
	}

	@ParameterizedTest
	@MethodSource("macros")
	void exampleRuns(final String name, @TempDir final Path out) throws IOException {
		final String macro = text(name);
		assertTrue(macro.contains(MacroRunner.RUN_LINE), name +
			" should start the macro functions");
		// getDirectory("temp") is java.io.tmpdir: the test's own folder while it runs
		final String tmp = System.getProperty("java.io.tmpdir");
		System.setProperty("java.io.tmpdir", out.toString());
		try {
			run(name, macro, out);
		}
		finally {
			System.setProperty("java.io.tmpdir", tmp);
		}
		final List<Pattern> printed = printPatterns(macro);
		for (final String line : MacroRunner.log().split("\\R"))
			assertTrue(line.isEmpty() || PROGRESS.matcher(line).matches() || printed.stream()
				.anyMatch(p -> p.matcher(line).matches()), name +
					" logged a line it does not print: " + line +
					"\nlog:\n" + MacroRunner.log());
	}

	private static void run(final String name, final String macro, final Path out)
		throws IOException
	{
		if (name.equals("Batch_Folder.ijm")) {
			final Path in = Files.createDirectories(out.resolve("in"));
			Files.copy(images.resolve("target.tif"), in.resolve("plate1.tif"));
			Files.copy(images.resolve("target.tif"), in.resolve("plate2.tif"));
			final Path results = Files.createDirectories(out.resolve("results"));
			MacroRunner.run(macro, "input=[" + in + "] background=[" + images.resolve(
				"background.tif") + "] output=[" + results + "]");
			for (final String p : new String[] { "plate1", "plate2" })
				for (final String f : new String[] { "-eigen-images.tif", "-scatter.png",
					"-model.json" })
					assertTrue(Files.isRegularFile(results.resolve(p + f)), p + f);
			return;
		}
		MacroRunner.run(macro, images.toString());
		if (name.equals("Apply_Saved_Model.ijm")) assertTrue(Files.isRegularFile(out
			.resolve("cpca-background-pca.json")), "model saved in the temp folder");
		if (name.equals("Auto_Then_Chosen_Alpha.ijm")) assertTrue(Files.isRegularFile(
			out.resolve("cpca-model.json")), "model saved in the temp folder");
		if (name.equals("ROI_As_Background.ijm")) {
			// the first 8 slices of the 40-slice target as channels, 12 × 10 pixels
			assertTrue(MacroRunner.log().contains("120 pixels, 8 planes;"), MacroRunner
				.log());
		}
		if (name.equals("Compare_Methods.ijm")) {
			// one row per method; the bar that tells the classes apart varies only in the
			// target, so PCA (led by the shared texture) misses it and cPCA finds it
			final ResultsTable rt = ResultsTable.getResultsTable();
			assertEquals(7, rt.size());
			final Map<String, Double> best = new HashMap<>();
			for (int i = 0; i < rt.size(); i++)
				best.put(rt.getStringValue("method", i), rt.getValue("best LDA accuracy", i));
			assertTrue(best.get("PCA") < 0.75, "PCA: " + best);
			assertTrue(best.get("cPCA automatic alpha") >= 0.9, "cPCA: " + best);
			assertEquals(1, rt.getValue("models", 0), "PCA returns one model");
			assertTrue(rt.getValue("models", 1) >= 2, "automatic α returns several models");
		}
	}
}
