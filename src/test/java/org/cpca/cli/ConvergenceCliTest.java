package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every iterative method writes how its iteration ended to summary.json under the one key
 * "convergence" (keyed by the iteration: "dual" for UCA, "em" for PCPCA with modelled
 * missing values, "online", "shuffles" for gcPCA's test), each with the same five fields;
 * the console says so in one line when one did not converge (issue 31).
 */
class ConvergenceCliTest {

	@TempDir
	Path dir;

	private JsonObject fit(final String name, final String... extra) throws Exception {
		final Path t = GcpcaTableCliTest.table(dir);
		final Path out = dir.resolve(name);
		final List<String> a = new ArrayList<>(Arrays.asList("fit", "--target", t.toString(),
			"--target-where", "group=T", "--out", out.toString()));
		a.addAll(Arrays.asList(extra));
		final Object[] r = CliTest.cpca(a.toArray(new String[0]));
		assertEquals(0, r[0], r[2].toString());
		final JsonObject s = JsonParser.parseString(new String(Files.readAllBytes(out.resolve(
			"summary.json")), StandardCharsets.UTF_8)).getAsJsonObject();
		s.addProperty("console", r[1].toString());
		return s;
	}

	private static JsonObject entry(final JsonObject summary, final String name) {
		final JsonObject all = summary.getAsJsonObject("convergence");
		assertTrue(all != null && all.has(name), summary.toString());
		final JsonObject e = all.getAsJsonObject(name);
		assertEquals(Set.of("iterations", "converged", "tolerance", "final_change", "cap"), e
			.keySet());
		return e;
	}

	@Test
	void eachIterativeMethodWritesOneConvergenceEntry() throws Exception {
		final String table = GcpcaTableCliTest.table(dir).toString();
		final JsonObject uca = fit("uca", "--method", "uca", "--background", table,
			"--background", table, "--background-where", "group=B", "--background-where",
			"1:half=a", "--background-where", "2:half=b", "-k", "2");
		final JsonObject dual = entry(uca, "dual");
		assertTrue(dual.get("converged").getAsBoolean(), dual.toString());
		final JsonObject pcpca = fit("pcpca", "--method", "pcpca", "--alpha", "0.3",
			"--missing", "model", "--background", table, "--background-where", "group=B");
		final JsonObject em = entry(pcpca, "em");
		assertTrue(em.get("iterations").getAsInt() >= 1 && em.get("cap").getAsInt() >= em.get(
			"iterations").getAsInt(), em.toString());
		final JsonObject gcpca = fit("gcpca", "--method", "gcpca", "--shuffles", "5",
			"--background", table, "--background-where", "group=B");
		final JsonObject shuffles = entry(gcpca, "shuffles");
		assertEquals(5, shuffles.get("iterations").getAsInt());
		final JsonObject online = fit("online", "--method", "online", "--beta", "0.5",
			"--background", table, "--background-where", "group=B");
		final JsonObject o = entry(online, "online");
		assertTrue(o.get("converged").getAsBoolean(), o.toString());
		assertFalse(online.get("console").getAsString().contains("did not converge"));
	}

	@Test
	void aRunThatDidNotConvergeSaysSoInOneConsoleLine() throws Exception {
		final String table = GcpcaTableCliTest.table(dir).toString();
		final JsonObject online = fit("online", "--method", "online", "--beta", "0.5",
			"--eta", "0.001", "--epochs", "1", "--background", table, "--background-where",
			"group=B");
		final JsonObject o = entry(online, "online");
		assertFalse(o.get("converged").getAsBoolean(), o.toString());
		final String console = online.get("console").getAsString();
		final long lines = console.lines().filter(l -> l.contains("did not converge")).count();
		assertEquals(1, lines, console);
		assertTrue(console.contains("did not converge: online"), console);
	}
}
