package org.cpca.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A named set of y series over one x axis that a method reports besides its models (e.g.
 * separation against β, or the convergence of online cPCA*). The layers above write it as
 * a CSV table and draw it as a line plot, without knowing which method made it.
 */
public final class Curve {

	/** File-name stem, e.g. "convergence": written as convergence.csv and plots/convergence.png. */
	public final String name;
	public final String title;
	public final String xLabel;
	public final String yLabel;
	/** Whether the x axis is best shown logarithmically. */
	public final boolean logX;
	private final double[] x;
	private final Map<String, double[]> series;

	/** @param series column name → values (same length as x), in display order */
	public Curve(final String name, final String title, final String xLabel,
		final String yLabel, final boolean logX, final double[] x,
		final Map<String, double[]> series)
	{
		for (final Map.Entry<String, double[]> e : series.entrySet())
			if (e.getValue().length != x.length) throw new IllegalArgumentException("series " +
				e.getKey() + " has " + e.getValue().length + " values for " + x.length + " x");
		this.name = name;
		this.title = title;
		this.xLabel = xLabel;
		this.yLabel = yLabel;
		this.logX = logX;
		this.x = x.clone();
		final Map<String, double[]> copy = new LinkedHashMap<>();
		series.forEach((k, v) -> copy.put(k, v.clone()));
		this.series = Collections.unmodifiableMap(copy);
	}

	public double[] x() {
		return x.clone();
	}

	/** Column name → values (do not modify the arrays). */
	public Map<String, double[]> series() {
		return series;
	}

	/** "x,s1,s2\n…" with the x label as first header. */
	public String csv() {
		final StringBuilder sb = new StringBuilder(xLabel.replace(',', ' '));
		series.keySet().forEach(k -> sb.append(',').append(k.replace(',', ' ')));
		sb.append('\n');
		for (int i = 0; i < x.length; i++) {
			sb.append(x[i]);
			for (final double[] v : series.values())
				sb.append(',').append(Double.isNaN(v[i]) ? "" : Double.toString(v[i]));
			sb.append('\n');
		}
		return sb.toString();
	}
}
