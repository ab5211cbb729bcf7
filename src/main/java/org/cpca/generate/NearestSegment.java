package org.cpca.generate;

import java.util.Arrays;

/**
 * For the pixels near a polyline, the nearest of its segments and the point on it: the
 * rasterisers' distance field, measured only where a stroke can cover a pixel.
 * <p>
 * Each {@link #add segment} is measured on the pixels whose centres may lie within
 * {@code reach} of it (all that do, and a few that do not), row by row: a point within
 * {@code reach} of a segment lies within {@code reach}, in x, of the part of the
 * segment inside the band |y - row| &le; {@code reach}. A pixel keeps the first segment
 * that is nearest (segments are added in order). A stroke thus costs its own area, not
 * its bounding box's, and the distances are those of a full grid, to the bit: the same
 * arithmetic on the same numbers.
 */
final class NearestSegment {

	private final int w, h;
	private final double[] distance2, along;
	private final int[] segment, touched;
	private int count;

	/** For images of w × h pixels. */
	NearestSegment(final int w, final int h) {
		this.w = w;
		this.h = h;
		distance2 = new double[w * h];
		along = new double[w * h];
		segment = new int[w * h];
		touched = new int[w * h];
		Arrays.fill(distance2, Double.MAX_VALUE);
	}

	/**
	 * Measures segment {@code s} from (ax, ay) to (ax + ex, ay + ey), in pixels (pixel
	 * x, y has its centre at x + 1/2, y + 1/2), on the pixels within {@code reach}.
	 */
	void add(final int s, final double ax, final double ay, final double ex,
		final double ey, final double reach)
	{
		final double len2 = ex * ex + ey * ey;
		final double inverse = ey != 0 ? 1 / ey : 0;
		final int ya = Math.max(0, (int) Math.ceil(Math.min(ay, ay + ey) - reach - 0.5));
		final int yb = Math.min(h - 1, (int) Math.floor(Math.max(ay, ay + ey) + reach -
			0.5));
		for (int y = ya; y <= yb; y++) {
			final double qy = y + 0.5;
			double t0 = 0, t1 = 1;
			if (ey != 0) {
				final double ta = (qy - reach - ay) * inverse, tb = (qy + reach - ay) *
					inverse;
				t0 = Math.max(0, Math.min(ta, tb));
				t1 = Math.min(1, Math.max(ta, tb));
				if (t0 > t1) continue;
			}
			final double x0 = ax + t0 * ex, x1 = ax + t1 * ex;
			final int xa = Math.max(0, (int) Math.ceil(Math.min(x0, x1) - reach - 0.5));
			final int xb = Math.min(w - 1, (int) Math.floor(Math.max(x0, x1) + reach -
				0.5));
			for (int x = xa; x <= xb; x++) {
				final double qx = x + 0.5;
				double u = len2 > 0 ? ((qx - ax) * ex + (qy - ay) * ey) / len2 : 0;
				u = Math.max(0, Math.min(1, u));
				final double rx = qx - ax - u * ex, ry = qy - ay - u * ey;
				final double d2 = rx * rx + ry * ry;
				final int p = y * w + x;
				if (d2 < distance2[p]) {
					if (distance2[p] == Double.MAX_VALUE) touched[count++] = p;
					distance2[p] = d2;
					along[p] = u;
					segment[p] = s;
				}
			}
		}
	}

	/** @return how many pixels were measured since {@link #clear} */
	int count() {
		return count;
	}

	/** @return the index (y · w + x) of the i-th pixel measured */
	int pixel(final int i) {
		return touched[i];
	}

	/** @return the squared distance from pixel p to the nearest segment */
	double distance2(final int p) {
		return distance2[p];
	}

	/** @return which segment is nearest to pixel p (the first of equals) */
	int segment(final int p) {
		return segment[p];
	}

	/** @return where on that segment the nearest point lies, in [0, 1] */
	double along(final int p) {
		return along[p];
	}

	/** Forgets every distance, for the next polyline. */
	void clear() {
		for (int i = 0; i < count; i++)
			distance2[touched[i]] = Double.MAX_VALUE;
		count = 0;
	}
}
