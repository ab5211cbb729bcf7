package org.cpca.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.Progress;
import org.cpca.core.rpca.Rpca;
import org.cpca.core.uca.Uca;
import java.util.Locale;

/**
 * The "uca" benchmark group: UCA with three backgrounds in high dimension (Tu, Foss & Zhao's
 * Product-SVD setting), fit included, split and stacked, and rPCA on the same data.
 */
final class UcaBench {

	private UcaBench() {}

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		final int d = 10_000, n = 100, count = 3;
		final float[][][] data = SyntheticData.severalBackgrounds(6, n, n, count, d, 5, 4,
			0.3);
		final Dataset target = Dataset.wrap("target", data[0]);
		final List<Dataset> backgrounds = new ArrayList<>();
		for (int j = 1; j <= count; j++)
			backgrounds.add(Dataset.wrap("background " + j, data[j]));
		final String shape = n + "+" + count + "×" + n + "×" + d;
		final CpcaOptions o = CpcaOptions.defaults();
		final String[] note = { "" };
		final double split = Bench.median(() -> {
			final long t0 = System.nanoTime();
			final Cpca c = Cpca.fit(target, backgrounds, o, Progress.NONE);
			final long t1 = System.nanoTime();
			final CpcaModel m = Uca.fit(c, Progress.NONE);
			final double s = (System.nanoTime() - t0) / 1e9;
			note[0] = String.format(Locale.ROOT, "fit %.3f s; λ = %s; %s", (t1 - t0) / 1e9, format(
				(double[]) m.parameters().get("lambda")), solves(m));
			return s;
		});
		rows.add(Bench.print(out, new Bench.Row("uca split, 3 backgrounds (reduced space)",
			shape, split, 2.0, note[0])));
		final double stacked = Bench.median(() -> {
			final long t0 = System.nanoTime();
			final CpcaModel m = Uca.stacked(target, backgrounds, o, Progress.NONE);
			note[0] = "λ = " + format((double[]) m.parameters().get("lambda")) + "; " + solves(
				m);
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(Bench.print(out, new Bench.Row("uca stacked, 3 backgrounds pooled", shape,
			stacked, Double.NaN, note[0])));
		final double rpca = Bench.median(() -> {
			final long t0 = System.nanoTime();
			final CpcaModel m = Rpca.fit(Cpca.fit(target, backgrounds, o, Progress.NONE), null,
				Progress.NONE);
			note[0] = "k_b = " + format((double[]) m.parameters().get("k_b")) + " (elbow)";
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(Bench.print(out, new Bench.Row("rpca, 3 backgrounds, elbow rule", shape,
			rpca, Double.NaN, note[0])));
	}

	private static String solves(final CpcaModel m) {
		for (final String s : m.diagnostics())
			if (s.startsWith("UCA: λ")) {
				final int a = s.indexOf("after "), b = s.indexOf("eigen-solves");
				if (a >= 0 && b > a) return s.substring(a, b + "eigen-solves".length());
			}
		return "";
	}

	private static String format(final double[] v) {
		final StringBuilder s = new StringBuilder("[");
		for (int i = 0; i < v.length; i++)
			s.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4g", v[i]));
		return s.append("]").toString();
	}
}
