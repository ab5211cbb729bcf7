package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.io.FileSaver;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Ext.saveModel} to a file name that is valid but near the file system's 255 bytes
 * (two-byte letters: the temporary file it is written through must fit too), in a real
 * macro run.
 */
class SaveModelNameTest {

	@TempDir
	static Path dir;

	@BeforeAll
	static void images() {
		new FileSaver(CpcaMacroFunctionsTest.stack("target.tif", 30, 1, true))
			.saveAsTiffStack(dir.resolve("target.tif").toString());
		new FileSaver(CpcaMacroFunctionsTest.stack("background.tif", 30, 2, false))
			.saveAsTiffStack(dir.resolve("background.tif").toString());
	}

	@Test
	void aModelNameOf252BytesIsSaved() throws Exception {
		final String name = String.join("", Collections.nCopies(121, "é")) + "model.json";
		assertEquals(252, name.getBytes(StandardCharsets.UTF_8).length);
		final Path model = dir.resolve(name);
		final String out = MacroRunner.run(MacroRunner.RUN_LINE + "\nopen(\"" + dir.resolve(
			"target.tif") + "\");\nopen(\"" + dir.resolve("background.tif") + "\");\n" +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=1 components=1\");\n" +
			"Ext.saveModel(0, \"" + model + "\");\nreturn \"ok\";");
		assertEquals("ok", out);
		assertTrue(Files.readString(model).contains("contrastive-pca-model"));
		try (Stream<Path> s = Files.list(dir)) {
			final List<String> left = s.map(p -> p.getFileName().toString()).filter(n -> n
				.startsWith(".")).collect(Collectors.toList());
			assertEquals(List.of(), left, "temporary files left");
		}
	}
}
