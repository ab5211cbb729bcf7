package org.cpca.flags;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cpca.io.TableInput;

import picocli.CommandLine.Option;

/**
 * What a fit reads: the target, the backgrounds, labels, mask, binning, and for tables
 * the row filters and missing cells (docs/cli-reference.md). A picocli mixin of
 * {@code cpca fit} and {@code cpca-spark fit}; {@code --standardize}, a setting, is
 * parsed with the others by {@link LinearMethodFlags#settings()}.
 */
public final class InputFlags {

	private static final Pattern NUMBERED = Pattern.compile("^\\s*(\\d+)\\s*:(.*)$");

	@Option(names = "--target", required = true, paramLabel = "PATH",
		description = "The target data: what you want to understand.")
	public Path target;

	@Option(names = "--background", paramLabel = "PATH",
		description = "The background data: variation to ignore (same features as the " +
			"target). Required for cPCA; repeat it for methods that take several.")
	public List<Path> background = new ArrayList<>();

	@Option(names = "--labels", paramLabel = "FILE",
		description = "Class label of each target sample, one per line, in sample order " +
			"(for plots and separation measures). Images: repeated slice labels are used " +
			"when this is not given.")
	public Path labels;

	@Option(names = "--label-column", paramLabel = "NAME",
		description = "CSV column holding the class label of each row.")
	public String labelColumn;

	@Option(names = "--mask", paramLabel = "PATH",
		description = "Image whose nonzero pixels select the pixels used as features.")
	public Path mask;

	@Option(names = "--bin", paramLabel = "N", defaultValue = "1",
		description = "Average N × N pixel blocks into one feature (default: " +
			"${DEFAULT-VALUE}).")
	public int bin;

	@Option(names = "--missing", paramLabel = "drop|mean|zero|model", defaultValue = "drop",
		description = "Empty cells of CSV tables and NaN pixels of 32-bit images: drop the " +
			"row (images: refuse NaN), fill with the feature's mean, fill with 0, or " +
			"(--method pcpca) model them by EM over the observed values " +
			"(default: ${DEFAULT-VALUE}).")
	public String missing;

	@Option(names = "--target-where", paramLabel = "COLUMN=VALUE",
		description = "Tables: use only the target rows whose COLUMN equals VALUE " +
			"(repeat to require several), e.g. --target-where Treatment=Saline.")
	public List<String> targetWhere = new ArrayList<>();

	@Option(names = "--background-where", paramLabel = "[N:]COLUMN=VALUE",
		description = "Tables: the same for the background rows (the background may be " +
			"the same file as the target). Applies to every background, or with the prefix " +
			"N: to the N-th --background only (1-based), e.g. --background-where " +
			"2:Treatment=Memantine.")
	public List<String> backgroundWhere = new ArrayList<>();

	@Option(names = "--standardize", description = "Divide each feature by its own " +
		"dataset's standard deviation (for tables whose columns have different units); " +
		"--method online needs --centring pass for it.")
	public boolean standardize;

	/** {@code --missing}, parsed. */
	public TableInput.Missing missing() {
		return TableInput.parseMissing(missing);
	}

	/**
	 * The row filters of each background, in order: every {@code --background-where
	 * COLUMN=VALUE}, and those given as {@code N:COLUMN=VALUE} for the N-th.
	 *
	 * @throws IllegalArgumentException if an N names no background
	 */
	public List<List<String>> backgroundWhere() {
		final int count = background.size();
		final List<List<String>> out = new ArrayList<>();
		for (int j = 0; j < count; j++)
			out.add(new ArrayList<>());
		for (final String w : backgroundWhere) {
			final Matcher m = NUMBERED.matcher(w);
			if (!m.matches()) {
				out.forEach(list -> list.add(w));
				continue;
			}
			final int n = Integer.parseInt(m.group(1));
			if (n < 1 || n > count) throw new IllegalArgumentException("--background-where " +
				w + " names background " + n + " but " + count + " --background " + (count ==
					1 ? "was" : "were") + " given: use N:COLUMN=VALUE with 1 ≤ N ≤ " + count);
			out.get(n - 1).add(m.group(2));
		}
		return out;
	}
}
