package org.cpca;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * For tests whose code under test prints as it does for a user (a command's summary,
 * ImageJ's message about a file it cannot open): keeps standard output and error of
 * each test out of the build log, shows them when the test fails, and fails a passing
 * test that printed an exception (a passing test prints no stack trace).
 * Use with {@code @ExtendWith(QuietOutput.class)}.
 */
public final class QuietOutput implements BeforeEachCallback, AfterEachCallback {

	/**
	 * A line of a Java exception as it is printed: the exception's class name (with its
	 * package, so ordinary words do not match), a stack frame, or the JVM's "Exception
	 * in thread".
	 */
	public static final Pattern EXCEPTION_LINE = Pattern.compile(
		"(?m)^\\s*(?:(?:[a-z_$][\\w$]*\\.)+[\\w$]*(?:Exception|Error)\\b.*" +
			"|at [\\w$.<>/]+\\(.*\\)|Exception in thread .*)$");

	private static final Namespace NAMESPACE = Namespace.create(QuietOutput.class);

	private static final class Streams {

		final PrintStream out = System.out, err = System.err;
		final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
	}

	@Override
	public void beforeEach(final ExtensionContext context) {
		final Streams s = new Streams();
		context.getStore(NAMESPACE).put(Streams.class, s);
		final PrintStream to = new PrintStream(s.buffer, true, StandardCharsets.UTF_8);
		System.setOut(to);
		System.setErr(to);
	}

	@Override
	public void afterEach(final ExtensionContext context) {
		final Streams s = context.getStore(NAMESPACE).remove(Streams.class,
			Streams.class);
		if (s == null) return;
		System.setOut(s.out);
		System.setErr(s.err);
		final String printed = new String(s.buffer.toByteArray(), StandardCharsets.UTF_8);
		final String problem = check(printed, context.getExecutionException()
			.isPresent());
		if (context.getExecutionException().isPresent()) s.out.print(printed);
		else if (problem != null) throw new AssertionError(problem);
	}

	/**
	 * @return why a test that printed {@code printed} should fail, or {@code null}
	 */
	static String check(final String printed, final boolean failed) {
		if (failed || !EXCEPTION_LINE.matcher(printed).find()) return null;
		return "the test passed but printed an exception:\n" + printed;
	}
}
