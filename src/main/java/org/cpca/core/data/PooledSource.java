package org.cpca.core.data;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Several sources read as one, in order: the backgrounds pooled into one dataset
 * ("stacked", as {@link Dataset#pool}), for methods that read their input in passes.
 * Random access when every part has it; ranges read as the parts read them.
 */
public final class PooledSource implements SampleSource {

	private final String name;
	private final List<SampleSource> parts;
	private final int samples;

	private PooledSource(final String name, final List<SampleSource> parts) {
		this.name = name;
		this.parts = List.copyOf(parts);
		int n = 0;
		for (final SampleSource p : parts)
			n += p.samples();
		this.samples = n;
	}

	/** The parts as one, named as {@link Dataset#pool} names them; one part as it is. */
	public static SampleSource of(final List<SampleSource> parts) {
		if (parts.size() == 1) return parts.get(0);
		final List<String> names = new ArrayList<>();
		for (final SampleSource p : parts)
			names.add(p.name());
		return new PooledSource("pooled backgrounds (" + String.join(", ", names) + ")",
			parts);
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public int samples() {
		return samples;
	}

	@Override
	public int features() {
		return parts.get(0).features();
	}

	@Override
	public boolean randomAccess() {
		return parts.stream().allMatch(SampleSource::randomAccess);
	}

	@Override
	public boolean readsRanges() {
		return parts.stream().allMatch(SampleSource::readsRanges);
	}

	@Override
	public void read(final int index, final float[] into) throws IOException {
		int i = index;
		for (final SampleSource p : parts) {
			if (i < p.samples()) {
				p.read(i, into);
				return;
			}
			i -= p.samples();
		}
		throw new IndexOutOfBoundsException("sample " + index + " of " + samples);
	}

	@Override
	public void readRange(final int index, final int from, final int to,
		final float[] into) throws IOException
	{
		int i = index;
		for (final SampleSource p : parts) {
			if (i < p.samples()) {
				p.readRange(i, from, to, into);
				return;
			}
			i -= p.samples();
		}
		throw new IndexOutOfBoundsException("sample " + index + " of " + samples);
	}
}
