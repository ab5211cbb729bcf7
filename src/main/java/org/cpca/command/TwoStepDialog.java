package org.cpca.command;

import java.util.List;

/**
 * A command whose dialog comes in two steps, in Fiji ({@link DialogSteps}) and in plain
 * ImageJ ({@code ij1.CommandBridge}) alike: first what to analyse and with which method,
 * then only the fields that this choice needs (docs/fiji.md). A macro gives every key in
 * one {@code run("...", "...")} line, as before; keys the choice does not need are
 * ignored.
 */
public interface TwoStepDialog {

	/** The keys of the first dialog, in the order of the command's fields. */
	List<String> firstStep();

	/**
	 * Whether the second dialog shows {@code key}, given the first step's values (already
	 * set on this command).
	 */
	boolean needs(String key);

	/** The first step's choice in words, for the second dialog's title (e.g. "cPCA"). */
	String choice();
}
