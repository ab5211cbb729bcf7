package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cpca.core.data.Dataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CSV read row by row gives exactly what the table read into memory gives. */
class TableStreamTest {

	@TempDir
	Path dir;

	/** A table with a BOM, quotes, a comma inside quotes, NA/NaN/empty cells, CRLF. */
	static final String TABLE = "\uFEFFid,\"a\",b,c,group,kind\r\n" +
		"m1,1.5,2,,x,\"saline, shocked\"\r\n" + "m2,2.5,NA,7,y,control\r\n" + "\r\n" +
		"m3,3.5,4,8,x,control\r\n" + "m4,NaN,5,9,y,\"saline, shocked\"\r\n" +
		"m5,5.5,6,10,x,control\r\n" + "m6,6.5,7.25,11,y,control\r\n";

	private Path write(final String name, final String text) throws IOException {
		final Path p = dir.resolve(name);
		Files.write(p, text.getBytes(StandardCharsets.UTF_8));
		return p;
	}

	private static void assertSame(final TableInput expected, final TableStream actual)
		throws IOException
	{
		final Dataset d = expected.dataset;
		assertEquals(d.samples(), actual.samples());
		assertEquals(d.features(), actual.features());
		assertEquals(expected.featureNames, actual.featureNames());
		assertEquals(expected.ignoredColumns, actual.ignoredColumns());
		assertEquals(expected.labels, actual.labels());
		assertEquals(expected.rowsRead, actual.rowsRead);
		assertEquals(expected.rowsDropped, actual.rowsDropped);
		assertEquals(expected.cellsFilled, actual.cellsFilled);
		final float[] x = new float[actual.features()];
		// backwards: rows are read by their offsets, in any order
		for (int i = d.samples() - 1; i >= 0; i--) {
			actual.read(i, x);
			for (int j = 0; j < x.length; j++)
				assertEquals((float) d.value(i, j), x[j], "row " + i + ", feature " + j);
		}
	}

	@Test
	void everyMissingPolicyFilterAndLabelColumnMatchesTheTableInMemory()
		throws IOException
	{
		final Path csv = write("t.csv", TABLE);
		for (final TableInput.Missing missing : TableInput.Missing.values())
			for (final List<String> where : List.of(List.<String> of(), List.of("group=x"), List
				.of("kind=saline, shocked", "group=y")))
				for (final String label : new String[] { null, "group" }) {
					final TableInput expected = TableInput.read("target", csv, null, label, missing,
						where);
					try (TableStream actual = TableStream.open("target", csv, null, label, missing,
						where))
					{
						assertSame(expected, actual);
					}
				}
	}

	@Test
	void aFileOfManyChunksAndLongLinesIsReadExactly() throws IOException {
		// 3000 rows of 40 columns (~600 KB, lines of ~200 bytes, crossing the 64 KB
		// chunks of the reader); value of row i, column j = i + j/64 (exact in float)
		final StringBuilder sb = new StringBuilder("\uFEFF");
		for (int j = 0; j < 40; j++)
			sb.append(j == 0 ? "" : ",").append("column").append(j);
		sb.append("\r\n");
		for (int i = 0; i < 3000; i++) {
			for (int j = 0; j < 40; j++)
				sb.append(j == 0 ? "" : ",").append(i + j / 64.0);
			sb.append(i % 7 == 0 ? "\r\n\n" : "\n");
		}
		final Path csv = write("big.csv", sb.toString());
		final TableInput in = TableInput.read("target", csv, null, null,
			TableInput.Missing.DROP, List.of());
		try (TableStream st = TableStream.open("target", csv, null, null,
			TableInput.Missing.DROP, List.of()))
		{
			assertEquals(3000, st.samples());
			assertEquals(40, st.features());
			final float[] x = new float[40];
			for (final int i : new int[] { 2999, 0, 1234, 327, 328, 2000 }) {
				st.read(i, x);
				for (int j = 0; j < 40; j++) {
					assertEquals((float) (i + j / 64.0), x[j], "row " + i + ", column " + j);
					assertEquals(i + j / 64.0, in.dataset.value(i, j));
				}
			}
		}
	}

	@Test
	void namedFeatureColumnsAndTabSeparatedFiles() throws IOException {
		final Path tsv = write("t.tsv", "a\tb\tname\n1\t2\tp\n3\t\tq\n5\t6\tr\n");
		final List<String> names = List.of("b", "a");
		final TableInput expected = TableInput.read("background", tsv, names, null,
			TableInput.Missing.MEAN, List.of());
		try (TableStream actual = TableStream.open("background", tsv, names, null,
			TableInput.Missing.MEAN, List.of()))
		{
			assertSame(expected, actual);
			final float[] x = new float[2];
			actual.read(1, x);
			assertEquals(4, x[0]); // the mean of b over the rows that have it
			assertEquals(3, x[1]);
		}
	}

	@Test
	void theMouseProteinTableStreamsLikeItLoads() throws IOException {
		final Path beside = Path.of("..", "shared", "data", "Data_Cortex_Nuclear.csv");
		final Path mouse = Files.isRegularFile(beside) ? beside : Path.of(
			"/work/shared/data/Data_Cortex_Nuclear.csv");
		org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(mouse),
			"the shared data file is not on this machine");
		final List<String> where = List.of("Behavior=S/C", "Treatment=Saline");
		final TableInput expected = TableInput.read("target", mouse, null, "Genotype",
			TableInput.Missing.MEAN, where);
		try (TableStream actual = TableStream.open("target", mouse, null, "Genotype",
			TableInput.Missing.MEAN, where))
		{
			assertEquals(270, actual.samples());
			assertEquals(77, actual.features());
			assertSame(expected, actual);
		}
	}

	@Test
	void badTablesGiveTheSameMessages() throws IOException {
		final String[][] cases = { { "empty.csv", "" }, { "header.csv", "a,b\n" }, {
			"fields.csv", "a,b\n1,2\n3\n" }, { "words.csv", "name,kind\na,x\nb,y\n" }, {
				"inf.csv", "a,b\n1,2\n3,Infinity\n" }, { "drop.csv", "a,b\n1,\n,2\n" } };
		for (final String[] c : cases) {
			final Path p = write(c[0], c[1]);
			final String expected = assertThrows(IllegalArgumentException.class, () -> TableInput
				.read("target", p, null, null, TableInput.Missing.DROP, List.of())).getMessage();
			final String actual = assertThrows(IllegalArgumentException.class, () -> TableStream
				.open("target", p, null, null, TableInput.Missing.DROP, List.of())).getMessage();
			assertEquals(expected, actual, c[0]);
		}
		final Path t = write("t.csv", TABLE);
		for (final String where : new String[] { "group=z", "colour=red", "group" }) {
			final String expected = assertThrows(IllegalArgumentException.class, () -> TableInput
				.read("target", t, null, null, TableInput.Missing.MEAN, List.of(where)))
				.getMessage();
			assertEquals(expected, assertThrows(IllegalArgumentException.class,
				() -> TableStream.open("target", t, null, null, TableInput.Missing.MEAN, List.of(
					where))).getMessage());
			assertTrue(expected.contains(where.contains("=") ? where.substring(0, where
				.indexOf('=')) : where), expected);
		}
	}
}
