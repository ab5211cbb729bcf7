package org.cpca.image;

import static org.cpca.image.FeatureLayoutTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.ByteProcessor;
import ij.process.FloatProcessor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.cpca.QuietOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(QuietOutput.class) // ImageJ prints why it cannot open the broken files
class ImageInputTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	/** Writes a 3×2 8-bit TIFF whose pixels all have the given value. */
	private Path tiff(final Path folder, final String name, final int value) {
		final ByteProcessor bp = new ByteProcessor(3, 2);
		bp.setValue(value);
		bp.fill();
		final Path p = folder.resolve(name);
		assertTrue(new FileSaver(new ImagePlus(name, bp)).saveAsTiff(p.toString()));
		return p;
	}

	@Test
	void folderOpensAsSequenceInSortedNameOrder() throws IOException {
		tiff(dir, "img10.tif", 10);
		tiff(dir, "img2.tif", 2);
		tiff(dir, "img1.tif", 1);
		tiff(dir, ".hidden.tif", 99);
		Files.write(dir.resolve("notes.txt"), "not an image".getBytes(
			StandardCharsets.UTF_8));
		Files.createDirectory(dir.resolve("sub"));
		final ImagePlus imp = ImageInput.open(dir);
		assertEquals(3, imp.getStackSize());
		assertFalse(imp.getStack().isVirtual());
		assertEquals(3, imp.getWidth());
		assertEquals(2, imp.getHeight());
		final ImageStack stack = imp.getStack();
		assertEquals(1, stack.getProcessor(1).get(0));
		assertEquals(2, stack.getProcessor(2).get(0));
		assertEquals(10, stack.getProcessor(3).get(0));
		assertEquals("img1.tif", StackSamples.sliceLabels(imp).get(0));
		assertEquals("img10.tif", StackSamples.sliceLabels(imp).get(2));
	}

	@Test
	void singleFileOpensAndIsNotModified() throws IOException {
		final ImageStack stack = new ImageStack(2, 2);
		stack.addSlice("a", new FloatProcessor(2, 2, new float[] { 1, 2, 3, 4 }));
		stack.addSlice("b", new FloatProcessor(2, 2, new float[] { 5, 6, 7, 8 }));
		final Path p = dir.resolve("stack.tif");
		assertTrue(new FileSaver(new ImagePlus("stack", stack)).saveAsTiffStack(p
			.toString()));
		final byte[] before = Files.readAllBytes(p);
		final FileTime modified = Files.getLastModifiedTime(p);
		final ImagePlus imp = ImageInput.open(p);
		assertEquals(2, imp.getStackSize());
		assertEquals(32, imp.getBitDepth());
		assertArrayEquals(new float[] { 5, 6, 7, 8 }, (float[]) imp.getStack().getPixels(
			2));
		assertArrayEquals(before, Files.readAllBytes(p));
		assertEquals(modified, Files.getLastModifiedTime(p));
	}

	@Test
	void missingPathIsReported() {
		assertMessage(() -> ImageInput.open(dir.resolve("nope.tif")),
			"does not exist: check the path");
	}

	@Test
	void unreadableFileIsReported() throws IOException {
		final Path p = dir.resolve("data.xyz");
		Files.write(p, "hello".getBytes(StandardCharsets.UTF_8));
		assertMessage(() -> ImageInput.open(p), "cannot read");
		final Path broken = dir.resolve("broken.tif");
		Files.write(broken, new byte[] { 1, 2, 3, 4, 5, 6, 7, 8 });
		assertMessage(() -> ImageInput.open(broken), "cannot read");
	}

	@Test
	void emptyFolderIsReported() throws IOException {
		final Path empty = Files.createDirectory(dir.resolve("empty"));
		assertMessage(() -> ImageInput.open(empty), "is empty");
		// a folder with only a text file is not "empty": it has no images, and says what it has
		Files.write(empty.resolve("readme.txt"), "x".getBytes(StandardCharsets.UTF_8));
		assertMessage(() -> ImageInput.open(empty), "has no images (it holds readme.txt)");
		for (int i = 0; i < 7; i++)
			Files.write(empty.resolve("note" + i + ".txt"), "x".getBytes(StandardCharsets.UTF_8));
		assertMessage(() -> ImageInput.open(empty), "(it holds note0.txt, note1.txt, " +
			"note2.txt, note3.txt, note4.txt and 3 more)");
	}

	@Test
	void folderWithoutReadableImagesIsReported() throws IOException {
		final Path f = Files.createDirectory(dir.resolve("junk"));
		Files.write(f.resolve("a.xyz"), "x".getBytes(StandardCharsets.UTF_8));
		assertMessage(() -> ImageInput.open(f), "no image ImageJ can read");
	}

	@Test
	void folderWithImagesOfDifferentSizesIsReported() {
		tiff(dir, "a.tif", 1);
		final Path p = dir.resolve("b.tif");
		assertTrue(new FileSaver(new ImagePlus("b", new ByteProcessor(5, 5))).saveAsTiff(p
			.toString()));
		assertMessage(() -> ImageInput.open(dir), "same width × height");
	}
}
