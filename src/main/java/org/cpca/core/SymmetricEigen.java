package org.cpca.core;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Eigenpairs of a real symmetric matrix, sorted by <em>signed</em> eigenvalue, descending.
 * <p>
 * The input is symmetrised ({@code (S + Sᵀ)/2}) before it is decomposed, so a symmetric
 * solver is always used and the output is always real. Full decompositions use EJML's
 * symmetric QR algorithm; {@link TopEigen} finds only the top few eigenpairs.
 */
public final class SymmetricEigen {

	private final int m;
	private final double[] values;
	private final double[] vectors;

	private SymmetricEigen(final int m, final double[] values, final double[] vectors) {
		this.m = m;
		this.values = values;
		this.vectors = vectors;
	}

	/**
	 * Decomposes the symmetric m × m row-major matrix {@code s} (not modified).
	 */
	public static SymmetricEigen of(final double[] s, final int m) {
		final DMatrixRMaj a = new DMatrixRMaj(m, m);
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++)
				a.data[i * m + j] = 0.5 * (s[i * m + j] + s[j * m + i]);
		final EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(m,
			true, true);
		if (!eig.decompose(a)) throw new ArithmeticException(
			"the symmetric eigen-decomposition did not converge (matrix of size " + m +
				"); check the input for extreme values");
		final Integer[] order = new Integer[m];
		final double[] raw = new double[m];
		for (int i = 0; i < m; i++) {
			order[i] = i;
			raw[i] = eig.getEigenvalue(i).getReal();
		}
		java.util.Arrays.sort(order, (p, q) -> Double.compare(raw[q], raw[p]));
		final double[] values = new double[m];
		final double[] vectors = new double[m * m];
		for (int c = 0; c < m; c++) {
			values[c] = raw[order[c]];
			final DMatrixRMaj v = eig.getEigenVector(order[c]);
			double norm = 0;
			for (int i = 0; i < m; i++)
				norm += v.data[i] * v.data[i];
			norm = Math.sqrt(norm);
			for (int i = 0; i < m; i++)
				vectors[i * m + c] = v.data[i] / norm;
		}
		return new SymmetricEigen(m, values, vectors);
	}

	/** Eigenvalues, descending (a copy). */
	public double[] values() {
		return values.clone();
	}

	public double value(final int c) {
		return values[c];
	}

	/** Eigenvectors as the columns of an m × m row-major matrix (a copy). */
	public double[] vectors() {
		return vectors.clone();
	}

	/** The first {@code k} eigenvectors as columns of an m × k row-major matrix. */
	public double[] vectors(final int k) {
		final double[] out = new double[m * k];
		for (int i = 0; i < m; i++)
			System.arraycopy(vectors, i * m, out, i * k, k);
		return out;
	}

	public int size() {
		return m;
	}
}
