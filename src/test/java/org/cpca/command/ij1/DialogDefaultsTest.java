package org.cpca.command.ij1;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ij.ImagePlus;
import ij.process.ByteProcessor;

import java.util.List;

import org.cpca.analysis.ResultWindows;
import org.cpca.command.OpenImages;
import org.junit.jupiter.api.Test;

/**
 * The plain-ImageJ dialog's first-run defaults: after Sample Data opened target.tif and
 * background.tif, OK, OK runs (the background was "*None*"), and a result window is
 * never the default target.
 */
class DialogDefaultsTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private static ImagePlus image(final String title, final boolean result) {
		final ImagePlus imp = new ImagePlus(title, new ByteProcessor(2, 2));
		if (result) ResultWindows.mark(imp);
		return imp;
	}

	@Test
	void theBackgroundDefaultsToTheOtherOpenImage() {
		final ImagePlus target = image("target.tif", false), background = image(
			"background.tif", false);
		final String[] titles = CommandBridge.imageTitles(List.of(target, background),
			background);
		// the current image first: the user chose background.tif last, the target field
		// takes it; the background takes the next one
		assertArrayEquals(new String[] { "background.tif", "target.tif" }, titles);
		assertEquals("background.tif", CommandBridge.initialImage(true, false, titles, 0));
		assertEquals("target.tif", CommandBridge.initialImage(false, true, titles, 1));
		// an optional image that does not take another one (the mask) stays empty, and so
		// does the background when no other image is open
		assertEquals("*None*", CommandBridge.initialImage(false, false, titles, 1));
		assertEquals("*None*", CommandBridge.initialImage(false, true, new String[] {
			"target.tif" }, 1));
		assertEquals("*None*", CommandBridge.initialImage(false, true, new String[0], 0));
		assertEquals(java.util.Set.of("background"), OpenImages.ANOTHER_IMAGE);
	}

	@Test
	void resultWindowsComeAfterTheUsersImages() {
		final ImagePlus target = image("target.tif", false), background = image(
			"background.tif", false), eigen = image("Eigen-images of target.tif", true),
			scatter = image("Scatter plot of target.tif", true);
		// the last result shown is the current image; it is not the default target
		final String[] titles = CommandBridge.imageTitles(List.of(target, background, eigen,
			scatter), scatter);
		assertArrayEquals(new String[] { "target.tif", "background.tif",
			"Scatter plot of target.tif", "Eigen-images of target.tif" }, titles);
		assertEquals("target.tif", CommandBridge.initialImage(true, false, titles, 0));
		assertEquals("background.tif", CommandBridge.initialImage(false, true, titles, 1));
	}
}
