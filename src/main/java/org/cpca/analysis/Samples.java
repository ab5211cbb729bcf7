package org.cpca.analysis;

import org.cpca.image.PixelSamples;

import ij.ImagePlus;
import ij.gui.Plot;
import ij.gui.Roi;
import ij.measure.ResultsTable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.star.CpcaStar;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.result.Method;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.Progress;
import org.cpca.core.result.Solution;
import org.cpca.image.DivergingLut;
import org.cpca.image.FeatureLayout;
import org.cpca.image.StackSamples;
import org.cpca.render.ExtremeSamples;
import org.cpca.render.Palette;
import org.cpca.render.ModelViews;
import org.cpca.render.ScatterPlot;
import org.cpca.render.ScreePlot;
import org.cpca.render.VariancePairsPlot;

/** Which way an image stack becomes samples × features. */
public enum Samples {
		/** Each slice is a sample; its pixels are the features. */
		SLICES,
		/** Each pixel is a sample; its values in the planes of the stack are the features. */
		PIXELS;

	/** "slices" or "pixels" (also accepts "slices as samples", …). */
	public static Samples parse(final String text) {
		final String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
		if (s.startsWith("slice")) return SLICES;
		if (s.startsWith("pixel")) return PIXELS;
		throw new IllegalArgumentException("samples=" + text +
			" is not known: use slices (each slice is a sample) or pixels (each pixel is " +
			"a sample)");
	}
}
