package org.cpca.core.online;

import java.io.IOException;
import java.util.Locale;

import org.cpca.core.Progress;
import org.cpca.core.data.SampleSource;
import org.cpca.core.model.CpcaModel;

/**
 * One online cPCA* run as every front end asks for it (the command line on files, Fiji
 * on open images or folders): decide whether to compare with offline cPCA*, compute that
 * reference, stream the network over the data ({@link OnlineCpcaStar#fit}). The one copy
 * of this orchestration; see docs/math/online.md.
 */
public final class OnlineRun {

	/** The learned model and curve, and the offline reference ({@code null} if none). */
	public final OnlineCpcaStar.Result result;
	public final CpcaModel offline;
	/** Wall time of the offline reference and of the online run, in seconds. */
	public final double referenceSeconds, onlineSeconds;

	private OnlineRun(final OnlineCpcaStar.Result result, final CpcaModel offline,
		final double referenceSeconds, final double onlineSeconds)
	{
		this.result = result;
		this.offline = offline;
		this.referenceSeconds = referenceSeconds;
		this.onlineSeconds = onlineSeconds;
	}

	/**
	 * @param reference "auto" (compare when both datasets fit in memory, {@link
	 *          OnlineCpcaStar#referenceFits}), "offline" (always) or "none"
	 * @throws IllegalArgumentException for an unknown reference mode, unusable data or a
	 *           diverging run, with what to do
	 */
	public static OnlineRun run(final SampleSource target, final SampleSource background,
		final OnlineOptions options, final String reference, final Progress progress)
		throws IOException
	{
		final String mode = reference == null ? "auto" : reference.trim().toLowerCase(
			Locale.ROOT);
		if (!mode.equals("auto") && !mode.equals("offline") && !mode.equals("none"))
			throw new IllegalArgumentException("reference=" + reference +
				" is not known: use auto, offline or none");
		final long t0 = System.nanoTime();
		final boolean compare = mode.equals("offline") || mode.equals("auto") &&
			OnlineCpcaStar.referenceFits(target, background);
		final CpcaModel offline = compare ? OnlineCpcaStar.offlineReference(target,
			background, options, progress) : null;
		final long t1 = System.nanoTime();
		final OnlineCpcaStar.Result result = OnlineCpcaStar.fit(target, background, options,
			offline == null ? null : offline.components(), progress);
		return new OnlineRun(result, offline, (t1 - t0) / 1e9, (System.nanoTime() - t1) /
			1e9);
	}
}
