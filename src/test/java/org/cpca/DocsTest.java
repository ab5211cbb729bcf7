package org.cpca;

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
			"batch", "apply-a-model", "choosing-a-method"))
			assertTrue(Files.isRegularFile(Paths.get("docs/workflows/" + w + ".md")), w);
	}

	@Test
	void relativeLinksPointToExistingFiles() throws Exception {
		final List<Path> pages = new ArrayList<>();
		pages.add(Paths.get("README.md"));
		try (Stream<Path> s = Files.walk(Paths.get("docs"))) {
			pages.addAll(s.filter(p -> p.toString().endsWith(".md")).collect(Collectors
				.toList()));
		}
		final Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
		final List<String> broken = new ArrayList<>();
		for (final Path page : pages) {
			final Matcher m = link.matcher(read(page.toString()));
			while (m.find()) {
				String target = m.group(1);
				if (target.matches("^[a-z]+:.*") || target.startsWith("#")) continue;
				if (target.contains("#")) target = target.substring(0, target.indexOf('#'));
				final Path resolved = page.toAbsolutePath().getParent().resolve(target)
					.normalize();
				if (!Files.exists(resolved)) broken.add(page + " → " + m.group(1));
			}
		}
		assertTrue(broken.isEmpty(), "broken links: " + broken);
	}
}
