package org.cpca.core.data;

import java.io.IOException;
import java.util.List;

/**
 * One dataset (target or background) read one sample at a time, for methods that stream
 * their input instead of holding it ({@link OnlineCpcaStar}): a virtual stack or a large
 * TIFF read slice by slice, a folder of images read file by file, a CSV table read row
 * by row, or an in-memory {@link Dataset} ({@link #of}).
 * <p>
 * The number of samples and of features is known before the first read (a source may
 * make one cheap pass over its file to learn them). {@link #read} copies sample
 * {@code index} into the caller's buffer, so a reader holds at most one sample of its own.
 * A source with {@link #randomAccess()} accepts indices in any order; one without it
 * accepts only {@code 0} (start again) or the index after the last one read.
 */
public interface SampleSource extends AutoCloseable {

	/** What the user calls this data ("target", "background", a file name). */
	String name();

	/** Number of samples, n (one pass reads each once). */
	int samples();

	/** Number of features, d. */
	int features();

	/** Whether {@link #read} accepts indices in any order. */
	boolean randomAccess();

	/**
	 * Copies the features of sample {@code index} (0-based) into {@code into} (length
	 * {@link #features()}).
	 *
	 * @throws IllegalArgumentException if the sample has a non-finite value or does not
	 *           match the others (the message names the sample), or for an index out of
	 *           order on a source without random access
	 * @throws IOException if the underlying file cannot be read
	 */
	void read(int index, float[] into) throws IOException;

	/**
	 * Whether {@link #readRange} reads only the asked features (e.g. an uncompressed TIFF
	 * read by rows); without it a range costs a whole sample's read.
	 */
	default boolean readsRanges() {
		return false;
	}

	/**
	 * Copies features {@code from … to − 1} of sample {@code index} into {@code into[0 …
	 * to − from − 1]}: what a pass by feature tiles reads (docs/memory.md). By default the
	 * whole sample is read and the range copied; a source that can read less overrides it
	 * (and {@link #readsRanges}). The same rules of order and the same checks as
	 * {@link #read}.
	 */
	default void readRange(final int index, final int from, final int to,
		final float[] into) throws IOException
	{
		final float[] all = new float[features()];
		read(index, all);
		System.arraycopy(all, from, into, 0, to - from);
	}

	/** Class label of each sample (for reports), or {@code null} when none are known. */
	default List<String> labels() {
		return null;
	}

	/** Releases files held open; reading afterwards is an error. */
	@Override
	default void close() throws IOException {}

	/** An in-memory dataset as a source (random access, nothing copied). */
	static SampleSource of(final Dataset data) {
		return new SampleSource() {

			@Override
			public String name() {
				return data.name();
			}

			@Override
			public int samples() {
				return data.samples();
			}

			@Override
			public int features() {
				return data.features();
			}

			@Override
			public boolean randomAccess() {
				return true;
			}

			@Override
			public void read(final int index, final float[] into) {
				System.arraycopy(data.row(index), 0, into, 0, data.features());
			}

			@Override
			public List<String> labels() {
				return data.labels();
			}
		};
	}
}
