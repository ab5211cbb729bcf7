package org.cpca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cpca.core.Progress;
import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.kernel.KernelCpca;
import org.cpca.core.kernel.KernelCpcaModel;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.kernel.KernelOptions;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.core.rpca.Rpca;
import org.cpca.core.star.BetaSelection;
import org.cpca.core.star.CpcaPlusPlus;
import org.cpca.core.star.CpcaStar;
import org.cpca.core.uca.Uca;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java example of the README and of docs/java.md, compiled and run: the code between
 * the markers {@code README:begin} and {@code README:end} is the code those pages show
 * (a test checks that they show exactly this code), so the example cannot go stale.
 */
class ReadmeExampleTest {

	@TempDir
	Path dir;

	/** Samples × features: shared noise, plus in the target a hidden two-class signal. */
	private static double[][] rows(final int n, final int d, final boolean signal,
		final long seed)
	{
		final Random r = new Random(seed);
		final double[][] x = new double[n][d];
		for (int i = 0; i < n; i++) {
			final double shared = 10 * r.nextGaussian();
			for (int j = 0; j < d; j++)
				x[i][j] = shared * (j % 3 == 0 ? 1 : 0) + r.nextGaussian();
			if (signal) x[i][1] += i % 2 == 0 ? 3 : -3;
		}
		return x;
	}

	@Test
	void theReadmeExampleRuns() throws Exception {
		final double[][] targetRows = rows(60, 12, true, 1);
		final double[][] backgroundRows = rows(60, 12, false, 2);
		final double[][] background1Rows = rows(50, 12, false, 3);
		final double[][] background2Rows = rows(50, 12, false, 4);
		final Dataset newData = Dataset.of("new", rows(10, 12, true, 5));
		final Path folder = dir;
		// README:begin
		Dataset target = Dataset.of("target", targetRows);           // samples × features
		Dataset background = Dataset.of("background", backgroundRows);
		CpcaOptions options = CpcaOptions.defaults().withComponents(2);
		Cpca cpca = Cpca.fit(target, background, options, Progress.NONE);
		CpcaModel model = cpca.model(2.0);                            // any α, reusing the fit
		AlphaSelection<CpcaModel> auto = cpca.automatic(Progress.NONE); // α = 0 first, then representatives
		CpcaModel star = CpcaStar.of(cpca).model(0.5);                // cPCA* at β = 0.5 on the same fit
		BetaSelection betas = CpcaStar.of(cpca).automatic(Progress.NONE); // β = 0 first
		CpcaModel pp = CpcaPlusPlus.of(cpca).model();                 // cPCA++ (β = 1)
		double[][] scores = model.transform(newData);                 // new samples × k
		ModelFile.write(model, folder.resolve("model.json"));

		KernelCpca kernel = KernelCpca.fit(target, background, options,
			KernelOptions.defaults().withKernel(KernelFunction.rbf(Double.NaN)), Progress.NONE); // γ auto
		KernelCpcaModel k = kernel.model(2.0);
		double[][] kernelScores = k.transform(newData);
		FittedModel any = ModelFile.readAny(folder.resolve("model.json")); // linear or kernel

		// several backgrounds, prepared once in one space
		Dataset background1 = Dataset.of("background 1", background1Rows);
		Dataset background2 = Dataset.of("background 2", background2Rows);
		Cpca fit = Cpca.fit(target, List.of(background1, background2), options, Progress.NONE);
		CpcaModel uca = Uca.fit(fit, Progress.NONE);                  // parameters: lambda, dual
		CpcaModel pooled = Uca.stacked(target, List.of(background1, background2), options,
			Progress.NONE);
		CpcaModel rpca = Rpca.fit(fit, null, Progress.NONE);          // k_b by the log-elbow rule
		// README:end

		// what the comments promise
		assertEquals(10, scores.length);
		assertEquals(2, scores[0].length);
		assertEquals(0, auto.alphas()[0]);
		assertEquals(2.0, model.alpha());
		assertEquals(0.0, (Double) betas.models().get(0).parameters().get("beta"));
		assertEquals("cpcapp", pp.method());
		assertEquals(0.5, (Double) star.parameters().get("beta"));
		assertEquals(10, kernelScores.length);
		assertArrayEquals2(scores, any.transform(newData));
		assertTrue(uca.parameters().get("lambda") instanceof double[]);
		assertEquals(2, ((double[]) uca.parameters().get("lambda")).length);
		assertEquals(2, pooled.numComponents());
		org.junit.jupiter.api.Assertions.assertNotNull(rpca.parameters().get("k_b"));
		// the planted signal (feature 2) is what cPCA finds first
		final double[] v = model.components()[0];
		for (int j = 0; j < v.length; j++)
			if (j != 1) assertTrue(Math.abs(v[1]) > Math.abs(v[j]), "feature " + j);
	}

	private static void assertArrayEquals2(final double[][] a, final double[][] b) {
		assertEquals(a.length, b.length);
		for (int i = 0; i < a.length; i++)
			org.junit.jupiter.api.Assertions.assertArrayEquals(a[i], b[i], 1e-9);
	}

	/** The code between the markers, one trimmed line each, blank lines dropped. */
	private static List<String> exampleLines() throws Exception {
		final String src = new String(Files.readAllBytes(Paths.get(
			"src/test/java/org/cpca/ReadmeExampleTest.java")), StandardCharsets.UTF_8);
		final String code = src.substring(src.indexOf("// README:" + "begin") + 16, src
			.indexOf("// README:" + "end"));
		return normalise(code);
	}

	private static List<String> normalise(final String code) {
		return code.lines().map(String::trim).filter(l -> !l.isEmpty()).collect(
			java.util.stream.Collectors.toList());
	}

	/** The first ```java block of a page. */
	private static List<String> javaBlock(final String page) throws Exception {
		final String text = new String(Files.readAllBytes(Paths.get(page)),
			StandardCharsets.UTF_8);
		final Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(text);
		assertTrue(m.find(), page + " has a ```java block");
		return normalise(m.group(1));
	}

	@Test
	void theReadmeAndTheJavaPageShowExactlyThisCode() throws Exception {
		final List<String> code = exampleLines();
		assertEquals(code, javaBlock("docs/java.md"));
		// the README shows the first lines (up to the transform of new data)
		final List<String> readme = javaBlock("README.md");
		assertTrue(readme.size() >= 5, readme.toString());
		assertEquals(code.subList(0, readme.size()), readme);
		assertTrue(readme.stream().anyMatch(l -> l.contains("model.transform(newData)")));
	}
}
