package org.cpca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.macro.ExtensionDescriptor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cpca.macro.CpcaMacroFunctions;
import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * The documentation keeps up with the code: every macro function and every command-line
 * flag is in its reference, every workflow page exists, and every relative link of the
 * README and of docs/ points to a file that exists.
 */
class DocsTest {

	private static String read(final String file) throws Exception {
		return new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8);
	}

	@Test
	void everyMacroFunctionIsInTheMacroReference() throws Exception {
		final String page = read("docs/macro-reference.md");
		for (final ExtensionDescriptor f : new CpcaMacroFunctions().getExtensionFunctions())
			assertTrue(page.contains("### Ext." + f.name + "("), "Ext." + f.name +
				" in docs/macro-reference.md");
	}

	@Test
	void everySubcommandAndFlagIsInTheCliReference() throws Exception {
		final String page = read("docs/cli-reference.md");
		// as the command line makes it: with the flags of the families' own settings
		final CommandLine cl = org.cpca.cli.Main.commandLine();
		for (final CommandLine sub : cl.getSubcommands().values()) {
			final String name = sub.getCommandName();
			if ("help".equals(name)) continue;
			assertTrue(page.contains("## cpca " + name + "\n"), "## cpca " + name);
			for (final CommandLine.Model.OptionSpec o : sub.getCommandSpec().options())
				for (final String n : o.names())
					assertTrue(page.contains(n), "cpca " + name + " " + n +
						" in docs/cli-reference.md");
		}
	}

	@Test
	void everyWorkflowPageExists() {
		for (final String w : List.of("two-stacks", "roi-as-background", "pixels-as-samples",
			"batch", "apply-a-model", "choosing-a-method", "significance", "large-data"))
			assertTrue(Files.isRegularFile(Paths.get("docs/workflows/" + w + ".md")), w);
	}

	/** The README and every page of docs/. */
	private static List<Path> pages() throws Exception {
		final List<Path> pages = new ArrayList<>();
		pages.add(Paths.get("README.md"));
		try (Stream<Path> s = Files.walk(Paths.get("docs"))) {
			pages.addAll(s.filter(p -> p.toString().endsWith(".md")).sorted().collect(
				Collectors.toList()));
		}
		return pages;
	}

	/**
	 * Every relative link of the README and docs/ resolves: its file exists and its
	 * anchor ({@code page.md#a-heading}, {@code #a-heading}) names a heading of that page
	 * (as GitHub makes anchors) or an {@code id} in it.
	 */
	@Test
	void relativeLinksAndAnchorsResolve() throws Exception {
		final Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
		final List<String> broken = new ArrayList<>();
		for (final Path page : pages()) {
			final Matcher m = link.matcher(withoutCode(read(page.toString())));
			while (m.find()) {
				final String target = m.group(1);
				if (target.matches("^[a-z]+:.*")) continue; // https:, mailto:
				final int hash = target.indexOf('#');
				final String file = hash < 0 ? target : target.substring(0, hash);
				final Path resolved = file.isEmpty() ? page : page.toAbsolutePath().getParent()
					.resolve(file).normalize();
				if (!Files.exists(resolved)) broken.add(page + " → " + target);
				else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1)))
					broken.add(page + " → " + target + " (no such heading)");
			}
		}
		assertTrue(broken.isEmpty(), "broken links: " + broken);
	}

	@Test
	void anchorsAreMadeAsGitHubMakesThem() {
		assertEquals("the-heap-to-give", anchor("The heap to give"));
		assertEquals("cpca-fit", anchor("`cpca fit`"));
		assertEquals("α-and-β-in-files", anchor("α and β in files"));
		assertEquals("what-it-does-and-does-not-say", anchor(
			"What it does, and does not, say"));
	}

	/** Markdown without its fenced code blocks and inline code spans' links. */
	private static String withoutCode(final String md) {
		return md.replaceAll("(?s)```.*?```", "");
	}

	/** The anchors of a Markdown page: of its headings, and its explicit ids. */
	private static java.util.Set<String> anchors(final Path page) throws Exception {
		final java.util.Set<String> out = new java.util.HashSet<>();
		if (!page.toString().endsWith(".md")) return out;
		final java.util.Map<String, Integer> seen = new java.util.HashMap<>();
		for (final String line : withoutCode(read(page.toString())).split("\n")) {
			final Matcher h = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$").matcher(line);
			if (h.matches()) {
				final String a = anchor(h.group(1));
				final int n = seen.merge(a, 1, Integer::sum);
				out.add(n == 1 ? a : a + "-" + (n - 1));
			}
			final Matcher id = Pattern.compile("(?:id|name)=\"([^\"]+)\"").matcher(line);
			while (id.find())
				out.add(id.group(1));
		}
		return out;
	}

	/**
	 * GitHub's anchor of a heading: lower case, links reduced to their text, everything
	 * but letters, digits, spaces, hyphens and underscores dropped, spaces as hyphens.
	 */
	static String anchor(final String heading) {
		final String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
			.toLowerCase(java.util.Locale.ROOT);
		final StringBuilder sb = new StringBuilder();
		text.codePoints().forEach(c -> {
			if (Character.isLetterOrDigit(c) || c == '-' || c == '_') sb.appendCodePoint(c);
			else if (c == ' ') sb.append('-');
		});
		return sb.toString();
	}
}
