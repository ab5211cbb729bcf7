package org.cpca.core.gcpca;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.CholeskyDecomposition;
import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularValueDecomposition;

/**
 * gcPCA v2–v4 by the definition of docs/math/gcpca.md (the toolbox's full-space solution,
 * all components computed), written independently of {@link Gcpca} with Commons Math: the
 * pencil (N, D) solved through the Cholesky factor of D, inside a span Q given by the test
 * (the columns of Q, orthonormal). The orthogonal variants extract one vector at a time in
 * the complement (inside Q) of those kept, alternating the most target-enriched and the most
 * background-enriched.
 */
public final class GcpcaReference {

	private GcpcaReference() {}

	/**
	 * The 2k unit loadings (rows, length d): the k largest values first, then the k smallest
	 * (most negative first).
	 */
	public static double[][] solve(final double[][] a, final double[][] b, final double[][] q,
		final Gcpca.Variant variant, final int k, final boolean orthogonal)
	{
		final RealMatrix ma = MatrixUtils.createRealMatrix(a), mb = MatrixUtils
			.createRealMatrix(b);
		final RealMatrix n = variant == Gcpca.Variant.V2 ? ma : ma.subtract(mb);
		final RealMatrix d = variant == Gcpca.Variant.V4 ? ma.add(mb) : mb;
		final RealMatrix span = MatrixUtils.createRealMatrix(q);
		final double[][] out = new double[2 * k][];
		if (!orthogonal) {
			final RealMatrix[] pencil = pencil(n, d, span);
			final int cols = pencil[0].getColumnDimension();
			for (int c = 0; c < k; c++) {
				out[c] = unit(pencil[0].getColumnVector(c));
				out[k + c] = unit(pencil[0].getColumnVector(cols - 1 - c));
			}
			return out;
		}
		final int dim = a.length;
		for (int step = 0; step < 2 * k; step++) {
			final boolean top = step % 2 == 0;
			// the complement of the kept vectors inside the span: (I − KKᵀ) Q, orthonormalised
			RealMatrix p = MatrixUtils.createRealIdentityMatrix(dim);
			for (final double[] v : out)
				if (v != null) p = p.subtract(MatrixUtils.createColumnRealMatrix(v).multiply(
					MatrixUtils.createRowRealMatrix(v)));
			final SingularValueDecomposition svd = new SingularValueDecomposition(p.multiply(
				span));
			final int rank = span.getColumnDimension() - step;
			final RealMatrix j = svd.getU().getSubMatrix(0, dim - 1, 0, rank - 1);
			final RealMatrix[] pencil = pencil(n, d, j);
			final int cols = pencil[0].getColumnDimension();
			out[top ? step / 2 : k + step / 2] = unit(pencil[0].getColumnVector(top ? 0
				: cols - 1));
		}
		return out;
	}

	/** Columns v (descending value) of N v = λ D v inside the columns of J. */
	private static RealMatrix[] pencil(final RealMatrix n, final RealMatrix d,
		final RealMatrix j)
	{
		final RealMatrix nj = j.transpose().multiply(n).multiply(j);
		final RealMatrix dj = j.transpose().multiply(d).multiply(j);
		final RealMatrix l = new CholeskyDecomposition(symmetric(dj), 1e-300, 0).getL();
		final RealMatrix li = MatrixUtils.inverse(l);
		final RealMatrix c = symmetric(li.multiply(nj).multiply(li.transpose()));
		final EigenDecomposition e = new EigenDecomposition(c);
		final int m = c.getRowDimension();
		final double[] values = e.getRealEigenvalues();
		final Integer[] order = new Integer[m];
		for (int i = 0; i < m; i++)
			order[i] = i;
		java.util.Arrays.sort(order, (x, y) -> Double.compare(values[y], values[x]));
		final RealMatrix y = new Array2DRowRealMatrix(m, m);
		for (int c2 = 0; c2 < m; c2++)
			y.setColumnVector(c2, e.getEigenvector(order[c2]));
		return new RealMatrix[] { j.multiply(li.transpose()).multiply(y) };
	}

	private static RealMatrix symmetric(final RealMatrix x) {
		return x.add(x.transpose()).scalarMultiply(0.5);
	}

	private static double[] unit(final RealVector v) {
		return v.mapDivide(v.getNorm()).toArray();
	}

	/**
	 * The angle in degrees between the lines of u and v, as 2 asin(‖û ∓ v̂‖/2) (accurate
	 * for tiny angles, where the cosine is not).
	 */
	public static double angle(final double[] u, final double[] v) {
		double nu = 0, nv = 0, dot = 0;
		for (int i = 0; i < u.length; i++) {
			nu += u[i] * u[i];
			nv += v[i] * v[i];
			dot += u[i] * v[i];
		}
		final double sign = dot < 0 ? -1 : 1, fu = 1 / Math.sqrt(nu), fv = sign / Math
			.sqrt(nv);
		double diff = 0;
		for (int i = 0; i < u.length; i++) {
			final double x = u[i] * fu - v[i] * fv;
			diff += x * x;
		}
		return Math.toDegrees(2 * Math.asin(Math.min(1, Math.sqrt(diff) / 2)));
	}

	/**
	 * The orthonormal columns (d × (d − 1)) spanning the directions in which the duplicated
	 * features i and j agree: e_c for every other feature and (e_i + e_j)/√2.
	 */
	public static double[][] withoutDuplicate(final int d, final int i, final int j) {
		final double[][] q = new double[d][d - 1];
		int col = 0;
		for (int c = 0; c < d; c++) {
			if (c == j) continue;
			if (c == i) {
				q[i][col] = Math.sqrt(0.5);
				q[j][col] = Math.sqrt(0.5);
			}
			else q[c][col] = 1;
			col++;
		}
		return q;
	}
}
