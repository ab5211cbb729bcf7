package org.cpca.bench;

import java.util.function.LongToDoubleFunction;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Twelve independent chains of fused multiply–adds on the widest double vectors this JVM
 * offers on this CPU ({@code SPECIES_PREFERRED}: 512 bits with AVX-512): the rate at which
 * one core retires vector FMAs with no memory traffic, the true double-precision peak
 * ({@link ProductsBench}). Compiled from {@code src/main/vector} for Java 17 and loaded
 * by name, as the vector kernels are.
 */
final class VectorPeak implements LongToDoubleFunction {

	private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;

	/** Doubles per vector. */
	@Override
	public String toString() {
		return Integer.toString(D.length());
	}

	/** Runs n steps of the twelve chains; returns a sum that keeps them alive. */
	@Override
	public double applyAsDouble(final long n) {
		final DoubleVector a = DoubleVector.broadcast(D, 1.0000001), b = DoubleVector
			.broadcast(D, -1e-9);
		DoubleVector v0 = DoubleVector.broadcast(D, .1), v1 = DoubleVector.broadcast(D, .2),
				v2 = DoubleVector.broadcast(D, .3), v3 = DoubleVector.broadcast(D, .4),
				v4 = DoubleVector.broadcast(D, .5), v5 = DoubleVector.broadcast(D, .6),
				v6 = DoubleVector.broadcast(D, .7), v7 = DoubleVector.broadcast(D, .8),
				v8 = DoubleVector.broadcast(D, .9), v9 = DoubleVector.broadcast(D, 1),
				v10 = DoubleVector.broadcast(D, 1.1), v11 = DoubleVector.broadcast(D, 1.2);
		for (long i = 0; i < n; i++) {
			v0 = v0.fma(a, b);
			v1 = v1.fma(a, b);
			v2 = v2.fma(a, b);
			v3 = v3.fma(a, b);
			v4 = v4.fma(a, b);
			v5 = v5.fma(a, b);
			v6 = v6.fma(a, b);
			v7 = v7.fma(a, b);
			v8 = v8.fma(a, b);
			v9 = v9.fma(a, b);
			v10 = v10.fma(a, b);
			v11 = v11.fma(a, b);
		}
		return v0.add(v1).add(v2).add(v3).add(v4).add(v5).add(v6).add(v7).add(v8).add(v9)
			.add(v10).add(v11).reduceLanes(VectorOperators.ADD);
	}
}
