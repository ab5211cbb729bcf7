package org.cpca.core.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cpca.core.cpca.CpcaFamily;
import org.cpca.core.cpca.PcaFamily;
import org.cpca.core.family.Family;
import org.cpca.core.gcpca.GcpcaFamily;
import org.cpca.core.kernel.KernelFamily;
import org.cpca.core.online.OnlineFamily;
import org.cpca.core.pcpca.PcpcaFamily;
import org.cpca.core.result.Method;
import org.cpca.core.rpca.RpcaFamily;
import org.cpca.core.sparse.SparseRun;
import org.cpca.core.star.PlusPlusFamily;
import org.cpca.core.star.StarFamily;
import org.cpca.core.uca.UcaFamily;

/**
 * The registry of the method families: every family is listed here once, and nowhere
 * else. {@link Settings} hands each family's keys to its declaration, {@link MethodRunner}
 * runs the family of the chosen method; a family that is registered but has no
 * {@code FamilyPropertyTest} fails the build (docs/architecture.md, "How to add a
 * family").
 */
public final class Families {

	private Families() {}

	/** Every family, in the order of {@link Method}. */
	private static final List<Family<?>> ALL = List.of(new PcaFamily(), new CpcaFamily(),
		new StarFamily(), new PlusPlusFamily(), new UcaFamily(), new RpcaFamily(),
		new KernelFamily(), new OnlineFamily(), new GcpcaFamily(SparseRun::gcpca),
		new PcpcaFamily());

	private static final Map<Method, Family<?>> BY_METHOD = new EnumMap<>(Method.class);
	static {
		for (final Family<?> f : ALL)
			if (BY_METHOD.put(f.method(), f) != null) throw new IllegalStateException(
				"two families run " + f.method().id);
		for (final Method m : Method.values())
			if (!BY_METHOD.containsKey(m)) throw new IllegalStateException("no family runs " +
				m.id);
	}

	/** Every family, in the order of {@link Method}. */
	public static List<Family<?>> all() {
		return ALL;
	}

	/** The family that runs {@code method}. */
	public static Family<?> of(final Method method) {
		return BY_METHOD.get(method);
	}

	/** Every family's keys, in the order the families and their declarations list them. */
	static Set<String> keys() {
		final Set<String> out = new LinkedHashSet<>();
		for (final Family<?> f : ALL)
			out.addAll(f.keys().names());
		return Collections.unmodifiableSet(out);
	}

	/** The methods whose family declares {@code key}. */
	static List<Method> declaring(final String key) {
		final List<Method> out = new ArrayList<>();
		for (final Family<?> f : ALL)
			if (f.keys().names().contains(key)) out.add(f.method());
		return out;
	}

	/** What {@code key} accepts (the first family declaring it says). */
	static String accepts(final String key) {
		for (final Family<?> f : ALL)
			if (f.keys().names().contains(key)) return f.keys().accepts(key);
		throw new IllegalArgumentException("no setting " + key);
	}
}
