package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CSV by RFC 4180 (quoted separators, quoted line breaks, doubled quotes), and the text
 * encodings a table may come in: read the same in memory and row by row, or refused in
 * one line naming the row, the byte and the fix.
 */
class TableCsvTest {

	@TempDir
	Path dir;

	private Path write(final String name, final byte[] bytes) throws IOException {
		final Path p = dir.resolve(name);
		Files.write(p, bytes);
		return p;
	}

	private Path write(final String name, final String text) throws IOException {
		return write(name, text.getBytes(StandardCharsets.UTF_8));
	}

	private static TableInput read(final Path p) throws IOException {
		return TableInput.read("target", p, null, "note", TableInput.Missing.DROP, List.of());
	}

	private static TableStream stream(final Path p) throws IOException {
		return TableStream.open("target", p, null, "note", TableInput.Missing.DROP, List
			.of());
	}

	/** Both readers refuse the file with the same message, which is returned. */
	private static String refused(final Path p) {
		final String inMemory = assertThrows(IllegalArgumentException.class, () -> TableInput
			.read("target", p, null, null, TableInput.Missing.DROP, List.of())).getMessage();
		final String streamed = assertThrows(IllegalArgumentException.class, () -> TableStream
			.open("target", p, null, null, TableInput.Missing.DROP, List.of())).getMessage();
		assertEquals(inMemory, streamed);
		assertTrue(inMemory.startsWith(p.toString()), inMemory);
		return inMemory;
	}

	@Test
	void quotedLineBreaksQuotesAndSeparatorsAreOneField() throws IOException {
		final Path p = write("t.csv", "x,note,y\r\n" + //
			"1,\"two\r\nlines, and a comma\",2\r\n" + //
			"3,\"say \"\"hi\"\"\",4\n" + //
			"5,\"\n\n\",6\n" + //
			"7,plain,8\n");
		final TableInput t = read(p);
		assertEquals(List.of("x", "y"), t.featureNames);
		assertEquals(List.of("two\r\nlines, and a comma", "say \"hi\"", "", "plain"), t.labels);
		assertEquals(4, t.dataset.samples());
		final double[] expected = { 1, 2, 3, 4, 5, 6, 7, 8 };
		final TableStream s = stream(p);
		final float[] x = new float[2];
		for (int i = 3; i >= 0; i--) { // by the rows' offsets, in any order
			assertEquals(expected[2 * i], t.dataset.value(i, 0));
			assertEquals(expected[2 * i + 1], t.dataset.value(i, 1));
			s.read(i, x);
			assertArrayEquals(new float[] { (float) expected[2 * i], (float) expected[2 * i +
				1] }, x);
		}
		assertEquals(t.labels, s.labels());
		assertEquals(2, s.multiLineRow());
		s.close();
	}

	/** A cluster splits a table among its executors line by line: a quoted line break is refused. */
	@Test
	void splittingByLinesRefusesQuotedLineBreaks() throws IOException {
		final LoadedData.Reading how = new LoadedData.Reading();
		final LoadedData flat = LoadedData.stream("target", write("f.csv",
			"x,note,y\n1,\"a, b\",2\n3,c,4\n"), how);
		final TableLines lines = TableLines.of(flat, how);
		assertArrayEquals(new float[] { 1, 2 }, lines.parse("1,\"a, b\",2"));
		flat.source.close();
		final LoadedData broken = LoadedData.stream("target", write("b.csv",
			"x,note,y\n1,plain,2\n3,\"two\nlines\",4\n5,c,6\n"), how);
		final String m = assertThrows(IllegalArgumentException.class, () -> TableLines.of(
			broken, how)).getMessage();
		broken.source.close();
		assertTrue(m.contains("row 3 has a quoted field holding a line break"), m);
	}

	@Test
	void anUnclosedQuoteIsNamedWithItsRow() throws IOException {
		final String m = refused(write("q.csv", "x,y\n1,2\n3,\"4\n5,6\n7,8\n"));
		assertTrue(m.contains("row 3 opens a quoted field (\") that is never closed"), m);
		assertTrue(m.contains("close the quote"), m);
	}

	@Test
	void aNumberWithACommaInQuotesIsRefusedNotDropped() throws IOException {
		final String m = refused(write("c.csv", "x1,x2\n1,2\n\"1,234\",3\n5,6\n"));
		assertTrue(m.contains("row 3 holds '1,234' in column x1, a column of numbers"), m);
		assertTrue(m.contains("thousands separator"), m);
		// a semicolon-separated file: 1.234,5 is neither a plain nor a decimal-comma number
		final String e = refused(write("e.csv", "x1;x2\n1,5;2\n\"1.234,5\";3\n5;6\n"));
		assertTrue(e.contains("row 3 holds '1.234,5' in column x1"), e);
		// a text column with commas stays a text column
		final TableInput t = TableInput.read("target", write("t.csv",
			"x1,x2,kind\n1,2,\"a, b\"\n3,4,\"1,2,3\"\n5,6,c\n"), null, null,
			TableInput.Missing.DROP, List.of());
		assertEquals(List.of("kind"), t.ignoredColumns);
	}

	@Test
	void latin1IsRefusedNamingTheByte() throws IOException {
		final Path p = write("l.csv", "x,temp\u00e9rature\n1,2\n3,4\n5,6\n".getBytes(Charset
			.forName("ISO-8859-1")));
		final String m = refused(p);
		assertTrue(m.contains("is not UTF-8 text: row 1 has the byte 0xE9 at byte offset 6"),
			m);
		assertTrue(m.contains("'\u00e9'") && m.contains("re-save the file as UTF-8"), m);
		// further down, the offset counts from the file's start
		final String late = refused(write("l2.csv", "x,y\n1,2\n3,4\n5,caf\u00e9\n".getBytes(
			Charset.forName("ISO-8859-1"))));
		assertTrue(late.contains("row 4 has the byte 0xE9 at byte offset 17"), late);
		// a UTF-8 replacement character written on purpose is not an error
		assertEquals(List.of("z"), TableInput.read("target", write("r.csv", "x,y,z\n1,2,\uFFFD\n3,4,\uFFFD\n"), null,
			null, TableInput.Missing.DROP, List.of()).ignoredColumns);
	}

	@Test
	void utf16IsRefusedByName() throws IOException {
		final String text = "x,y\n1,2\n3,4\n";
		final byte[] le = text.getBytes(StandardCharsets.UTF_16LE);
		final byte[] withBom = new byte[le.length + 2];
		withBom[0] = (byte) 0xFF;
		withBom[1] = (byte) 0xFE;
		System.arraycopy(le, 0, withBom, 2, le.length);
		final String m = refused(write("u.csv", withBom));
		assertTrue(m.contains("is UTF-16 text (byte-order mark FF FE): re-save it as UTF-8"), m);
		final String be = refused(write("b.csv", text.getBytes(StandardCharsets.UTF_16)));
		assertTrue(be.contains("byte-order mark FE FF"), be);
		final String none = refused(write("n.csv", le));
		assertTrue(none.contains("seems to be UTF-16 text without a byte-order mark"), none);
	}
}
