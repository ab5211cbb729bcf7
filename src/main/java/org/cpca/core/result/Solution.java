package org.cpca.core.result;

import org.cpca.core.Curve;
import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashSet;

/**
 * What one run of a method produced, for the layers that show and write it: the models
 * (one, or one per selected α or β), the selection that chose them, the prepared fit,
 * curves, and facts for the summary. Immutable.
 */
public final class Solution {

	private final Method method;
	private final String alphaMode;
	private final List<FittedModel> models;
	private final AlphaSelection selection;
	private final Cpca fit;
	private final List<Curve> curves;
	private final Map<String, Object> facts;
	private final List<String> diagnostics;
	/** Index of {@link #primary()} in {@link #models()}; see {@link #withPrimary}. */
	private int primary = -1;
	private String primaryReason;
	/** Entries of each model's result (key → one value per model), see {@link #withResultFact}. */
	private Map<String, List<Object>> resultFacts = Map.of();
	/** Per-feature vectors of each model's result, not in the summary, see {@link #withResultImages}. */
	private Map<String, List<double[][]>> resultImages = Map.of();

	/**
	 * @param alphaMode "auto", "fixed", "inf", or {@code null} for methods without α
	 * @param selection the automatic α selection, or {@code null}
	 * @param fit the prepared linear fit, or {@code null} (kernel, online)
	 * @param facts extra summary entries (numbers, strings, arrays, maps) by name
	 */
	public Solution(final Method method, final String alphaMode,
		final List<? extends FittedModel> models, final AlphaSelection selection,
		final Cpca fit, final List<Curve> curves, final Map<String, Object> facts,
		final List<String> diagnostics)
	{
		if (models.isEmpty()) throw new IllegalArgumentException("a solution needs a model");
		this.method = method;
		this.alphaMode = alphaMode;
		this.models = Collections.unmodifiableList(new ArrayList<>(models));
		this.selection = selection;
		this.fit = fit;
		this.curves = Collections.unmodifiableList(new ArrayList<>(curves));
		this.facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
		this.diagnostics = Collections.unmodifiableList(new ArrayList<>(diagnostics));
	}

	/** A solution of the linear methods: models of one fit, with no curves or facts. */
	public static Solution of(final Method method, final String alphaMode,
		final List<? extends FittedModel> models, final AlphaSelection selection,
		final Cpca fit)
	{
		final List<String> notes = new ArrayList<>(fit == null ? List.of() : fit.diagnostics());
		if (selection != null && selection.exclusionNote() != null) notes.add(selection
			.exclusionNote());
		if (selection != null && selection.scaleNote() != null) notes.add(selection
			.scaleNote());
		return new Solution(method, alphaMode, models, selection, fit, List.of(), Map.of(),
			notes);
	}

	public Method method() {
		return method;
	}

	/** "auto", "fixed", "inf", or {@code null} for methods without α. */
	public String alphaMode() {
		return alphaMode;
	}

	public List<FittedModel> models() {
		return models;
	}

	/**
	 * The main model (saved as model.json, shown in tables): the only one, or with several
	 * (automatic α or β) the one picked for the user ({@link #withPrimary}) — the best
	 * separation of the target's classes when labels are known, otherwise the largest
	 * contrast eigengap — or, if no choice was made, the first after the α = 0 / β = 0
	 * baseline. Every model stays in {@link #models()} (and is saved).
	 */
	public FittedModel primary() {
		if (primary >= 0) return models.get(primary);
		return models.size() > 1 ? models.get(1) : models.get(0);
	}

	/** Why {@link #primary()} was chosen, or {@code null} for a single model. */
	public String primaryReason() {
		return primaryReason;
	}

	/**
	 * This solution with model {@code index} as its main model ({@link #primary()}), for
	 * the reason given (core.run's PrimaryChoice picks it for the user).
	 */
	public Solution withPrimary(final int index, final String reason) {
		if (index < 0 || index >= models.size()) throw new IllegalArgumentException(
			"no model " + index);
		final Solution out = copy(facts);
		out.primary = index;
		out.primaryReason = reason;
		return out;
	}

	/**
	 * This solution with how the iteration {@code name} ended added to the facts'
	 * {@value Convergence#KEY} entry ({@link Convergence}).
	 */
	public Solution withConvergence(final String name, final Convergence convergence) {
		return copy(convergence.addTo(facts, name));
	}

	/**
	 * This solution with an entry {@code key} in each model's result (summary.json's
	 * "results"), one value per model of {@link #models()}, in that order.
	 */
	public Solution withResultFact(final String key, final List<?> perModel) {
		if (perModel.size() != models.size()) throw new IllegalArgumentException(key +
			": " + perModel.size() + " values for " + models.size() + " models");
		final Solution out = copy(facts);
		final Map<String, List<Object>> all = new LinkedHashMap<>(resultFacts);
		all.put(key, Collections.unmodifiableList(new ArrayList<>(perModel)));
		out.resultFacts = Collections.unmodifiableMap(all);
		return out;
	}

	/**
	 * This solution with per-feature vectors {@code name} for each model (one k × d array
	 * per model of {@link #models()}, in that order), for images beside the summary (e.g.
	 * the bootstrap's spread per component).
	 */
	public Solution withResultImages(final String name, final List<double[][]> perModel) {
		if (perModel.size() != models.size()) throw new IllegalArgumentException(name +
			": " + perModel.size() + " values for " + models.size() + " models");
		final Solution out = copy(facts);
		final Map<String, List<double[][]>> all = new LinkedHashMap<>(resultImages);
		all.put(name, Collections.unmodifiableList(new ArrayList<>(perModel)));
		out.resultImages = Collections.unmodifiableMap(all);
		return out;
	}

	/** Each model's per-feature vectors by name ({@link #withResultImages}). */
	public Map<String, List<double[][]>> resultImages() {
		return resultImages;
	}

	/** Each model's extra result entries: key → one value per model. */
	public Map<String, List<Object>> resultFacts() {
		return resultFacts;
	}

	/**
	 * This solution with {@code notes} first among its diagnostics (what the reading of
	 * the inputs noted, e.g. by the streamed plan), repeats left out.
	 */
	public Solution withNotesFirst(final List<String> notes) {
		final List<String> all = new ArrayList<>(notes);
		for (final String d : diagnostics)
			if (!all.contains(d)) all.add(d);
		return copy(facts, all);
	}

	private Solution copy(final Map<String, Object> newFacts) {
		return copy(newFacts, diagnostics);
	}

	private Solution copy(final Map<String, Object> newFacts, final List<String> notes) {
		final Solution out = new Solution(method, alphaMode, models, selection, fit, curves,
			newFacts, notes);
		out.primary = primary;
		out.primaryReason = primaryReason;
		out.resultFacts = resultFacts;
		out.resultImages = resultImages;
		return out;
	}

	/** The automatic α selection, or {@code null}. */
	public AlphaSelection selection() {
		return selection;
	}

	/** The prepared linear fit, or {@code null}. */
	public Cpca fit() {
		return fit;
	}

	public List<Curve> curves() {
		return curves;
	}

	/** Extra summary entries by name. */
	public Map<String, Object> facts() {
		return facts;
	}

	/** Notes of the fit and of every model, without repeats, in order. */
	public List<String> diagnostics() {
		final LinkedHashSet<String> all = new LinkedHashSet<>(
			diagnostics);
		for (final FittedModel m : models)
			all.addAll(m.diagnostics());
		if (primaryReason != null) all.add(primaryReason);
		return new ArrayList<>(all);
	}

	/** Whether every model is linear (has components in feature space). */
	public boolean linear() {
		for (final FittedModel m : models)
			if (!(m instanceof CpcaModel)) return false;
		return true;
	}

	/** The models as linear models. @throws IllegalStateException if one is not linear */
	public List<CpcaModel> linearModels() {
		final List<CpcaModel> out = new ArrayList<>();
		for (final FittedModel m : models) {
			if (!(m instanceof CpcaModel)) throw new IllegalStateException(method.displayName +
				" has no components in feature space");
			out.add((CpcaModel) m);
		}
		return out;
	}
}
