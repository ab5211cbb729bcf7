package org.cpca.core.family;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The settings a family owns, declared once: each key (the snake_case name Fiji dialogs and
 * macros use; the command line's flag is its kebab-case form), what it accepts (for help
 * texts and messages), its dialog field ({@link KeyField}: label, default, range or
 * choices; none for a key no dialog shows) and its parser into the family's options
 * builder; {@link #parse} makes the immutable options value, with the defaults for every
 * key not given (a field's default parsed, else the builder's), and validates it.
 *
 * @param <B> the family's options builder (mutable, private to the family)
 * @param <O> the family's options (immutable)
 */
public final class OptionKeys<B, O> {

	/** Parses one key's text into the builder. */
	@FunctionalInterface
	public interface Parser<B> {

		/**
		 * @param shown how the key is written in messages ({@code "--alpha "} or
		 *          {@code "alpha="})
		 * @throws IllegalArgumentException naming the key and what it accepts
		 */
		void parse(B builder, String text, String shown);
	}

	private static final class Key<B> {

		final String accepts;
		final KeyField field;
		final Parser<B> parser;

		Key(final String accepts, final KeyField field, final Parser<B> parser) {
			this.accepts = accepts;
			this.field = field;
			this.parser = parser;
		}
	}

	private final Supplier<B> builder;
	private final Function<B, O> build;
	private final Map<String, Key<B>> keys = new LinkedHashMap<>();
	/** The fields {@link #dialogField} gives: a dialog's start, not the options' default. */
	private final Map<String, KeyField> dialogFields = new LinkedHashMap<>();
	private final Set<String> samplesOnly = new HashSet<>();

	private OptionKeys(final Supplier<B> builder, final Function<B, O> build) {
		this.builder = builder;
		this.build = build;
	}

	/**
	 * A declaration; add its keys with {@link #key}.
	 *
	 * @param builder a new builder holding every default
	 * @param build the options from a builder, validated
	 */
	public static <B, O> OptionKeys<B, O> of(final Supplier<B> builder,
		final Function<B, O> build)
	{
		return new OptionKeys<>(builder, build);
	}

	/** A family without settings of its own. */
	public static <O> OptionKeys<O, O> none(final O options) {
		return new OptionKeys<>(() -> options, b -> b);
	}

	/**
	 * Declares a key (in the order help texts list them) that the builder's own default
	 * covers and no dialog shows.
	 */
	public OptionKeys<B, O> key(final String name, final String accepts,
		final Parser<B> parser)
	{
		return key(name, accepts, null, parser);
	}

	/**
	 * Declares a key with its dialog field: the field's label, range and choices are what
	 * the Fiji dialogs show, and its default ({@link KeyField#initial()}) is parsed into
	 * every new builder, so the builder holds no default of its own for this key. The
	 * default and every choice are parsed here, so a declaration that offers a value its
	 * key refuses fails when the family is loaded.
	 */
	public OptionKeys<B, O> key(final String name, final String accepts,
		final KeyField field, final Parser<B> parser)
	{
		if (keys.put(name, new Key<>(accepts, field, parser)) != null)
			throw new IllegalStateException("key " + name + " declared twice");
		if (field != null) { // a dialog must not offer what the key refuses
			parser.parse(builder.get(), field.initial(), name + "=");
			for (final String choice : field.choices())
				parser.parse(builder.get(), choice, name + "=");
		}
		return this;
	}

	/**
	 * Gives a dialog field to a key whose options' default is not one text: a key of this
	 * family declared without a field because its default depends on other settings
	 * (online cPCA*'s centring: running, or the pass when standardising samples in memory),
	 * or a shared setting ({@code core.run.Settings} parses it) that this family reads with
	 * a meaning of its own (online cPCA*'s β: one value or its own automatic rule, not a
	 * sweep). The field's default is what this family's dialog starts with; the options'
	 * default stays the builder's (or the shared settings'). A key of this family has its
	 * default and choices parsed here, as {@link #key(String, String, KeyField,
	 * OptionKeys.Parser)} does.
	 */
	public OptionKeys<B, O> dialogField(final String name, final KeyField field) {
		final Key<B> k = keys.get(name);
		if (k != null && k.field != null) throw new IllegalStateException("key " + name +
			" has a field already");
		if (dialogFields.put(name, field) != null) throw new IllegalStateException("key " +
			name + " has two dialog fields");
		if (k != null) {
			k.parser.parse(builder.get(), field.initial(), name + "=");
			for (final String choice : field.choices())
				k.parser.parse(builder.get(), choice, name + "=");
		}
		return this;
	}

	/**
	 * {@code key}'s dialog field (its declaration's, or {@link #dialogField}'s), or {@code
	 * null} if no dialog of this family shows it.
	 */
	public KeyField field(final String key) {
		final Key<B> k = keys.get(key);
		return k != null && k.field != null ? k.field : dialogFields.get(key);
	}

	/**
	 * Marks declared keys as needing the samples: a fit from moments alone (a cluster
	 * front end, docs/spark.md) cannot use them, so such a front end offers no flag for
	 * them and the family refuses them there.
	 */
	public OptionKeys<B, O> samplesOnly(final String... names) {
		for (final String n : names) {
			if (!keys.containsKey(n)) throw new IllegalStateException("no key " + n);
			samplesOnly.add(n);
		}
		return this;
	}

	/** Whether {@code key} needs the samples (see {@link #samplesOnly}). */
	public boolean needsSamples(final String key) {
		return samplesOnly.contains(key);
	}

	/** The keys, in order. */
	public Set<String> names() {
		return Collections.unmodifiableSet(keys.keySet());
	}

	/** What {@code key} accepts. */
	public String accepts(final String key) {
		return keys.get(key).accepts;
	}

	/**
	 * Checks one key's text alone (so that a bad value is refused when it is given).
	 *
	 * @throws IllegalArgumentException naming the key and what it accepts
	 */
	public void check(final String key, final String text, final String shown) {
		keys.get(key).parser.parse(fresh(), text, shown);
	}

	/**
	 * The options from the user's text, the defaults for every key not given.
	 *
	 * @param text key → text, only keys of this declaration
	 * @param shown how a key is written in messages
	 */
	public O parse(final Map<String, String> text, final Function<String, String> shown) {
		final B b = fresh();
		for (final Map.Entry<String, String> e : text.entrySet())
			keys.get(e.getKey()).parser.parse(b, e.getValue(), shown.apply(e.getKey()));
		return build.apply(b);
	}

	/** The options with every default. */
	public O defaults() {
		return build.apply(fresh());
	}

	/** A new builder with the declared fields' defaults. */
	private B fresh() {
		final B b = builder.get();
		for (final Map.Entry<String, Key<B>> e : keys.entrySet())
			if (e.getValue().field != null) e.getValue().parser.parse(b, e.getValue().field
				.initial(), e.getKey() + "=");
		return b;
	}
}
