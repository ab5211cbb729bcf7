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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example macro in {@code plugins/Scripts/Plugins/Contrastive_PCA/} runs on small
 * stacks laid out like {@code test-images/} (target.tif with slice labels 0/1,
 * background.tif). Headless, {@code setBatchMode("exit and display")} (which opens
 * windows) is left out.
 */
class ExampleMacrosTest {

	static final Path FOLDER = Paths.get("plugins/Scripts/Plugins/Contrastive_PCA");

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

	@ParameterizedTest
	@MethodSource("macros")
	void exampleRuns(final String name, @TempDir final Path out) throws IOException {
		final String macro = text(name);
		assertTrue(macro.contains(MacroRunner.RUN_LINE), name +
			" should start the macro functions");
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
		}
		else MacroRunner.run(macro, images.toString());
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
