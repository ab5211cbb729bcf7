package org.cpca.command;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cpca.core.family.Family;
import org.cpca.core.result.Method;
import org.cpca.core.run.Families;
import org.cpca.core.run.Settings;
import org.scijava.command.DynamicCommand;
import org.scijava.module.MethodCallException;
import org.scijava.plugin.Parameter;

/**
 * The method settings shared by the Fiji commands that fit (Contrastive PCA…, Batch…),
 * declared once: SciJava finds these inherited parameters, and their names are the macro
 * keys, the same as the command line's flags in snake_case ({@code alpha_mode} ↔
 * {@code --alpha-mode}, {@code k_b} ↔ {@code --k-b}). {@link #settings()} parses them
 * with {@link Settings}, the one parser every front end uses.
 * <p>
 * The dialog comes in two steps ({@link TwoStepDialog}): the method first, then only
 * the settings of that method (its family's declared keys and the shared ones it reads,
 * {@link #methodKeys}) and the ones every method shares.
 * <p>
 * The fields are bare slots named by their keys: each key's declaration ({@link
 * DeclaredFields#of}: a family's {@code OptionKeys}, or the shared settings') gives the
 * field's default when the command is made and its label, help text, range and choices
 * when the dialog opens ({@link #initialize()}), so a setting is described once. The
 * method choice shows each method's readable name with its code in brackets; the
 * recorder writes the chosen text ({@code method=[Contrastive PCA (cpca)]}) and a macro
 * may give that or the plain code ({@code method=cpca}), as the command line does:
 * {@link #code} maps either to the code.
 */
public abstract class MethodCommand extends DynamicCommand implements TwoStepDialog {

	/** A method's code in brackets at the end of a choice: {@code "cPCA* (star)"}. */
	private static final Pattern BRACKETED = Pattern.compile(".*\\(\\s*([A-Za-z+]+)\\s*\\)\\s*");

	/**
	 * The shared settings (α, β, the significance test, the bootstrap) each method reads. Its
	 * own settings are those its family declares ({@code Family.keys()}, {@link #needs}).
	 */
	private static final Map<String, Set<String>> SHARED_KEYS = Map.of( //
		"cpca", Set.of("alpha_mode", "alpha", "significance", "significance_reselect",
			"bootstrap"), //
		"pca", Set.of("significance", "bootstrap"), //
		"star", Set.of("beta_mode", "beta", "significance", "bootstrap"), //
		"cpcapp", Set.of("significance", "bootstrap"), //
		"kernel", Set.of("alpha_mode", "alpha", "significance", "bootstrap"), //
		"uca", Set.of("significance", "bootstrap"), //
		"rpca", Set.of("significance", "bootstrap"), //
		"gcpca", Set.of("alpha_mode", "alpha", "significance", "bootstrap"), // alpha: variant v1
		"pcpca", Set.of("alpha_mode", "alpha", "significance", "bootstrap"));

	/**
	 * The settings that depend on the method: every family's own keys, and the shared
	 * ones not every method reads; the others of this class ({@code components},
	 * {@code standardize}, {@code whiten}, {@code bin}, {@code seed}) every method uses.
	 */
	static final Set<String> METHOD_SPECIFIC = methodSpecific();

	private static Set<String> methodSpecific() {
		final Set<String> out = new TreeSet<>(Set.of("alpha_mode", "alpha", "beta_mode",
			"beta", "significance", "significance_reselect", "bootstrap"));
		for (final Family<?> f : Families.all())
			out.addAll(f.keys().names());
		return Collections.unmodifiableSet(out);
	}

	/**
	 * The method settings {@code method} (a code) uses: its family's own keys and the
	 * shared ones it reads; {@code null} for an unknown method.
	 */
	static Set<String> methodKeys(final String method) {
		final Set<String> shared = SHARED_KEYS.get(method);
		if (shared == null) return null;
		final Set<String> out = new TreeSet<>(shared);
		out.addAll(Families.of(Method.parse(method)).keys().names());
		return out;
	}

	@Parameter
	protected String method;

	@Parameter
	protected String alpha_mode;

	@Parameter
	protected double alpha;

	@Parameter
	protected String beta_mode;

	@Parameter
	protected double beta;

	@Parameter
	protected double epsilon;

	@Parameter
	protected String kernel;

	@Parameter
	protected String gamma;

	@Parameter
	protected int degree;

	@Parameter
	protected double coef0;

	@Parameter
	protected String landmarks;

	@Parameter
	protected boolean stacked;

	@Parameter
	protected String k_b;

	@Parameter
	protected String variant;

	@Parameter
	protected boolean orthogonal;

	@Parameter
	protected int shuffles;

	@Parameter
	protected String sparsity;

	@Parameter
	protected int components;

	@Parameter
	protected boolean standardize;

	@Parameter
	protected boolean whiten;

	// image reading, not a method setting: declared here
	@Parameter(label = "Bin (slices as samples)", min = "1",
		description = "Average bin × bin pixel blocks into one feature (1: none).")
	protected int bin = 1;

	// not remembered between runs (persist = false): a slow test is asked for each time
	@Parameter(persist = false)
	protected int significance;

	@Parameter(persist = false)
	protected int bootstrap;

	@Parameter(persist = false)
	protected boolean significance_reselect;

	@Parameter
	protected long seed;

	/** Every field its key's declaration describes ({@link DeclaredFields#of}), in order. */
	static final DeclaredFields.Slots DECLARED = new DeclaredFields.Slots(
		MethodCommand.class, DeclaredFields::of);

	/** A command whose method settings hold their declared defaults. */
	protected MethodCommand() {
		DECLARED.start(this);
	}

	/**
	 * Before the dialog (Fiji's pre-processing, or the ImageJ 1.x bridge): each method
	 * setting's field takes the label, help text, default, range and choices its key
	 * declares.
	 */
	@Override
	public void initialize() throws MethodCallException {
		DECLARED.declare(this);
		super.initialize();
	}

	@Override
	public List<String> firstStep() {
		return List.of("method");
	}

	/**
	 * A method setting only for the methods that use it ({@link #methodKeys}); every
	 * other key always. An unknown method shows every setting (its run then names the
	 * method as unknown).
	 */
	@Override
	public boolean needs(final String key) {
		if (!METHOD_SPECIFIC.contains(key)) return true;
		final Set<String> keys = methodKeys(methodCode());
		return keys == null || keys.contains(key);
	}

	@Override
	public String choice() {
		try {
			return Method.parse(methodCode()).displayName;
		}
		catch (final IllegalArgumentException e) {
			return String.valueOf(method);
		}
	}

	/** The chosen method's code ({@link #code}). */
	protected String methodCode() {
		return code(method);
	}

	/**
	 * The method code of a choice or a macro's value: the code in brackets of a readable
	 * choice ({@code "cPCA* (star)"} → {@code star}), else the text itself (a macro's
	 * {@code method=star}), trimmed and in lower case.
	 */
	static String code(final String choice) {
		if (choice == null) return "";
		final Matcher m = BRACKETED.matcher(choice);
		return (m.matches() ? m.group(1) : choice).trim().toLowerCase(Locale.ROOT);
	}

	/** Whether the method takes more than one background (UCA, rPCA). */
	protected boolean manyBackgrounds() {
		final String m = methodCode();
		return m.equals("uca") || m.equals("rpca");
	}

	/**
	 * The method settings of this dialog. A dialog passes every field, so settings the
	 * chosen method does not use are ignored ({@link Settings.Builder#lenient()}).
	 *
	 * @throws IllegalArgumentException naming the key and what it accepts
	 */
	protected Settings settings() {
		return Settings.builder().lenient().set("method", methodCode()).set("alpha_mode",
			alpha_mode).set("alpha", alpha).set("beta_mode", beta_mode).set("beta", beta).set(
				"epsilon", epsilon).set("kernel", kernel).set("gamma", gamma).set("degree",
					degree).set("coef0", coef0).set("landmarks", landmarks).set("stacked",
						stacked).set("k_b", k_b).set("variant", variant).set("orthogonal", orthogonal).set(
							"shuffles", shuffles).set("sparsity", sparsity).set("components", components).set(
							"standardize", standardize).set("whiten", whiten).set("seed", seed)
			.set("significance", significance).set("bootstrap", bootstrap)
			.set("significance_reselect", significance_reselect).build();
	}
}
