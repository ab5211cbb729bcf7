package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import ij.ImagePlus;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

/**
 * Our PNG encoder against the JDK's PNG reader: every pixel of what we write reads back
 * unchanged, for a rendered plot, random noise (every byte value, every difference to the
 * left neighbour) and images whose pixels are not stored as one int per pixel.
 */
class PngTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private static int[] rgb(final BufferedImage image) {
		final int w = image.getWidth(), h = image.getHeight();
		final int[] p = image.getRGB(0, 0, w, h, null, 0, w);
		for (int i = 0; i < p.length; i++)
			p[i] &= 0xffffff;
		return p;
	}

	private static BufferedImage roundTrip(final BufferedImage image) throws IOException {
		final ByteArrayOutputStream out = new ByteArrayOutputStream();
		Png.write(image, out);
		final BufferedImage back = ImageIO.read(new ByteArrayInputStream(out.toByteArray()));
		assertNotNull(back, "the JDK reads our PNG");
		assertEquals(image.getWidth(), back.getWidth());
		assertEquals(image.getHeight(), back.getHeight());
		return back;
	}

	@Test
	void aRenderedPlotReadsBackPixelForPixel() throws IOException {
		final ImagePlus plot = ScatterPlot.render("t", "cPC1", "cPC2", new double[] { 1, 2,
			3, 4 }, new double[] { 4, 1, 3, 2 }, Arrays.asList("a", "b", "a", "b"));
		final BufferedImage image = Rgb.of(plot);
		assertArrayEquals(rgb(image), rgb(roundTrip(image)));
	}

	@Test
	void noiseOfEveryByteValueReadsBack() throws IOException {
		final Random r = new Random(5);
		for (final int[] size : new int[][] { { 1, 1 }, { 257, 3 }, { 31, 97 } }) {
			final BufferedImage image = new BufferedImage(size[0], size[1],
				BufferedImage.TYPE_INT_RGB);
			for (int y = 0; y < size[1]; y++)
				for (int x = 0; x < size[0]; x++)
					image.setRGB(x, y, r.nextInt());
			assertArrayEquals(rgb(image), rgb(roundTrip(image)), size[0] + "×" + size[1]);
		}
	}

	@Test
	void imagesInOtherLayoutsAreReadAsRgb() throws IOException {
		final BufferedImage argb = new BufferedImage(40, 30, BufferedImage.TYPE_INT_ARGB);
		final BufferedImage bytes = new BufferedImage(40, 30, BufferedImage.TYPE_3BYTE_BGR);
		for (final BufferedImage image : new BufferedImage[] { argb, bytes }) {
			final Graphics2D g = image.createGraphics();
			g.setColor(Color.WHITE);
			g.fillRect(0, 0, 40, 30);
			g.setColor(new Color(213, 94, 0));
			g.fillOval(5, 5, 20, 15);
			g.dispose();
			assertArrayEquals(rgb(image), rgb(roundTrip(image)));
		}
		// a view into a larger image (its rows are not contiguous)
		final BufferedImage big = new BufferedImage(50, 40, BufferedImage.TYPE_INT_RGB);
		final Random r = new Random(6);
		for (int y = 0; y < 40; y++)
			for (int x = 0; x < 50; x++)
				big.setRGB(x, y, r.nextInt());
		final BufferedImage view = big.getSubimage(7, 3, 20, 30);
		assertArrayEquals(rgb(view), rgb(roundTrip(view)));
	}
}
