package org.cpca.cli;

import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * A stand-in for the command line in {@link LauncherKillTest}: started by the real
 * {@code cpca} launcher from a jar, it prints "ready" on standard error, waits
 * (a fit in progress) and then writes the file it is given (the results).
 */
public final class LauncherChild {

	private LauncherChild() {}

	public static void main(final String[] args) throws Exception {
		System.err.println("ready");
		System.err.flush();
		Thread.sleep(Long.parseLong(args[1]));
		Files.write(Paths.get(args[0]), "results".getBytes("UTF-8"));
	}
}
