import ij.IJ;
import ij.ImageJ;
import ij.ImagePlus;
import ij.WindowManager;
import ij.gui.GenericDialog;
import ij.plugin.frame.Recorder;

import java.awt.AWTException;
import java.awt.Button;
import java.awt.Choice;
import java.awt.Component;
import java.awt.EventQueue;
import java.awt.Container;
import java.awt.Frame;
import java.awt.Label;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Toolkit;
import java.awt.Window;
import java.awt.event.ActionEvent;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import javax.imageio.ImageIO;

/**
 * Drives a real ImageJ 1.x (with the ImageJ bundle installed in -Dplugins.dir) as a user
 * would, under Xvfb, and takes screenshots of its real windows (src/site/screenshots.sh):
 * Plugins > Contrastive PCA > Sample Data, then Contrastive PCA... from the menu with the
 * macro recorder open, OK, OK with the dialogs' defaults (checked: target.tif as target,
 * background.tif as background, cPCA, automatic alpha), each dialog photographed; then the
 * results as the plugin arranges them (checked: tiled, none covering another) and the
 * recorder's line; then Explore Alpha...
 * (photographed with its slider) runs Contrastive PCA... at the chosen alpha. Writes
 * imagej-dialog-choice.png, imagej-dialog.png, imagej-recorder.png, imagej-results.png, imagej-explore-alpha.png
 * and recorded.txt (the recorder's text) into the folder given as the argument; exits 1
 * on any failure.
 */
public class Screenshots {

	/** Where the dialogs are shown: right of ImageJ's window (about 540 wide) and the images. */
	private static final int DIALOG_X = 620;

	public static void main(final String[] args) throws Exception {
		final File out = new File(args[0]);
		out.mkdirs();
		try {
			run(out);
			System.exit(0);
		}
		catch (final Throwable t) {
			t.printStackTrace();
			synchronized (HISTORY) {
				for (final String line : HISTORY)
					System.out.println(line);
			}
			System.exit(1);
		}
	}

	private static void run(final File out) throws Exception {
		new ImageJ();
		final ImageJ ij = IJ.getInstance();
		ij.setLocation(0, 0);
		IJ.run("Record...");
		final Recorder recorder = Recorder.getInstance();
		if (recorder == null) throw new IllegalStateException("no macro recorder");
		recorder.setLocation(0, 700);
		IJ.run("Sample Data");
		final ImagePlus target = WindowManager.getImage("target.tif");
		if (target == null) throw new IllegalStateException("Sample Data opened no target.tif");
		IJ.wait(500);

		// the first run as a new user makes it: the menu command, as a click on Plugins >
		// Contrastive PCA > Contrastive PCA..., then OK, OK with the dialogs' defaults
		IJ.doCommand("Contrastive PCA...");
		final GenericDialog choice = waitForDialog("Contrastive PCA");
		selected(choice, "target", "target.tif");
		selected(choice, "background", "background.tif");
		selected(choice, "method", "Contrastive PCA (cpca)");
		// right of ImageJ's window and the images, so that nothing covers it: without a
		// window manager toFront() does not always raise a dialog above them
		choice.setLocation(DIALOG_X, 0);
		choice.toFront();
		IJ.wait(1000);
		capture(choice.getBounds(), new File(out, "imagej-dialog-choice.png"));
		ok(choice);
		final GenericDialog gd = waitForDialog("Contrastive PCA: cPCA");
		absent(gd, "beta mode");
		absent(gd, "kernel");
		absent(gd, "background mask");
		selected(gd, "alpha mode", "auto");
		gd.setLocation(DIALOG_X, 0);
		gd.toFront();
		IJ.wait(1000);
		capture(gd.getBounds(), new File(out, "imagej-dialog.png"));
		// the recorder out of the way of the results, which the plugin tiles itself
		recorder.setLocation(3000, 3000);
		watchWindows();
		ok(gd);

		waitForImage("Contrastive eigen-images of target.tif");
		waitForImage("Eigenvalues of target.tif");
		waitForImage("Eigen-image figure of target.tif");
		for (final String table : TABLES)
			waitForFrame(table);
		IJ.wait(2000);
		final Rectangle screen = new Rectangle(Toolkit.getDefaultToolkit().getScreenSize());
		capture(screen, new File(out, "imagej-results.png"));
		checkTiled(screen);
		// and still tiled a while later: no window grows back or moves after the tiling
		IJ.wait(2000);
		checkTiled(screen);
		recorder.setLocation(0, 600);
		recorder.toFront();
		IJ.wait(1000);
		capture(recorder.getBounds(), new File(out, "imagej-recorder.png"));
		Files.write(new File(out, "recorded.txt").toPath(), recorder.getText().getBytes(
			StandardCharsets.UTF_8));
		recorder.setLocation(3000, 3000);

		// Explore Alpha...: its own dialog, the slider explorer, then Contrastive PCA at
		// the chosen alpha (run through SciJava's CommandService; ImageOutputs shows it)
		for (final int id : WindowManager.getIDList()) {
			final ImagePlus imp = WindowManager.getImage(id);
			if (!imp.getTitle().equals("target.tif") && !imp.getTitle().equals(
				"background.tif")) imp.close();
		}
		for (final String table : TABLES) {
			final Frame f = WindowManager.getFrame(table);
			if (f != null) f.dispose();
		}
		WindowManager.setCurrentWindow(target.getWindow());
		IJ.doCommand("Explore Alpha...");
		ok(waitForDialog("Explore Alpha"));
		final GenericDialog explorer = waitForDialog("Explore \u03b1");
		final ImagePlus explored = waitForImage("Explore Alpha: eigen-images");
		explored.getWindow().setLocation(0, 90);
		// right of the eigen-images, so that its y axis label shows
		waitForImage("Explore Alpha: scatter plot").getWindow().setLocation(explored
			.getWindow().getWidth() + 10, 90);
		explorer.setLocation(950, 600);
		IJ.wait(2000);
		capture(new Rectangle(Toolkit.getDefaultToolkit().getScreenSize()), new File(out,
			"imagej-explore-alpha.png"));
		ok(explorer);
		waitForImage("Contrastive eigen-images of target.tif");
		System.out.println("Explore Alpha ran Contrastive PCA at the chosen alpha");
	}

	/** Every change of a shown window's bounds since the run's OK ({@link #watchWindows}). */
	private static final java.util.List<String> HISTORY = java.util.Collections
		.synchronizedList(new java.util.ArrayList<>());

	/**
	 * Records every change of a shown window's bounds, with the milliseconds since the
	 * run's OK, until the program ends; printed when a check fails: a window that grows
	 * or appears after the results were tiled shows there.
	 */
	private static void watchWindows() {
		final long start = System.currentTimeMillis();
		final java.util.Map<Window, String> seen = new java.util.HashMap<>();
		final Thread t = new Thread(() -> {
			while (true) {
				for (final Window w : Window.getWindows()) {
					final String now = w.isShowing() ? w.getBounds().toString().replaceFirst(
						"^java.awt.Rectangle", "") : "hidden";
					if (!now.equals(seen.put(w, now)) && (w.isShowing() || seen.containsKey(w)))
						HISTORY.add("window +" + (System.currentTimeMillis() - start) + " ms " +
							title(w) + " " + now);
				}
				IJ.wait(20);
			}
		}, "window watch");
		t.setDaemon(true);
		t.start();
	}

	/** The run's tables, titled with the target's name. */
	private static final String[] TABLES = { "cPCA scores of target.tif",
		"cPCA components of target.tif" };

	/**
	 * Fails unless the run's windows (every image but the inputs, and the tables) lie
	 * on the screen and no two of them overlap by more than a tenth of the smaller.
	 */
	private static void checkTiled(final Rectangle screen) {
		final java.util.List<Window> shown = new java.util.ArrayList<>();
		for (final int id : WindowManager.getIDList()) {
			final ImagePlus imp = WindowManager.getImage(id);
			if (!imp.getTitle().equals("target.tif") && !imp.getTitle().equals(
				"background.tif")) shown.add(imp.getWindow());
		}
		for (final String table : TABLES)
			shown.add(WindowManager.getFrame(table));
		for (int i = 0; i < shown.size(); i++) {
			final Rectangle a = shown.get(i).getBounds();
			if (!screen.contains(a.getLocation())) throw new IllegalStateException(title(
				shown.get(i)) + " is off the screen at " + a);
			for (int j = 0; j < i; j++) {
				final Rectangle b = shown.get(j).getBounds(), both = a.intersection(b);
				final double smaller = Math.min(a.width * (double) a.height, b.width *
					(double) b.height);
				if (!both.isEmpty() && both.width * (double) both.height > 0.1 * smaller)
					throw new IllegalStateException(title(shown.get(i)) + " covers " + title(shown
						.get(j)) + ": the results are not tiled");
			}
		}
		System.out.println(shown.size() + " result windows tiled");
	}

	private static String title(final Window w) {
		return w instanceof Frame ? ((Frame) w).getTitle() : w.toString();
	}

	/** Presses OK, on the event thread as a click would. */
	private static void ok(final GenericDialog gd) {
		final Button ok = gd.getButtons()[0];
		EventQueue.invokeLater(() -> ok.dispatchEvent(new ActionEvent(ok,
			ActionEvent.ACTION_PERFORMED, ok.getLabel())));
	}

	private static Frame waitForFrame(final String title) {
		for (int i = 0; i < 600; i++) {
			final Frame f = WindowManager.getFrame(title);
			if (f != null && f.isShowing()) return f;
			IJ.wait(100);
		}
		throw new IllegalStateException("no window '" + title + "' appeared");
	}

	private static GenericDialog waitForDialog(final String title) {
		for (int i = 0; i < 600; i++) {
			for (final Window w : Window.getWindows())
				if (w instanceof GenericDialog && w.isShowing() && title.equals(((GenericDialog) w)
					.getTitle())) return (GenericDialog) w;
			IJ.wait(100);
		}
		throw new IllegalStateException("no dialog '" + title + "' appeared");
	}

	private static ImagePlus waitForImage(final String title) {
		for (int i = 0; i < 1200; i++) {
			final ImagePlus imp = WindowManager.getImage(title);
			if (imp != null && imp.getWindow() != null && imp.getWindow().isShowing())
				return imp;
			IJ.wait(100);
		}
		throw new IllegalStateException("no image '" + title + "' appeared");
	}

	/** The component right after the label {@code label} in the dialog. */
	private static Component field(final Container gd, final String label) {
		final Component[] cs = gd.getComponents();
		for (int i = 0; i < cs.length - 1; i++)
			if (cs[i] instanceof Label && label.equals(((Label) cs[i]).getText().trim()))
				return cs[i + 1];
		throw new IllegalStateException("the dialog has no field '" + label + "'");
	}

	/** Fails if the dialog shows a field {@code label}. */
	private static void absent(final Container gd, final String label) {
		for (final Component c : gd.getComponents())
			if (c instanceof Label && label.equals(((Label) c).getText().trim()))
				throw new IllegalStateException("the dialog shows '" + label + "', which " +
					"the chosen method does not use");
	}

	/** Fails unless the choice {@code label} shows {@code item} by default. */
	private static void selected(final Container gd, final String label,
		final String item)
	{
		final Component c = field(gd, label);
		if (!(c instanceof Choice) || !item.equals(((Choice) c).getSelectedItem()))
			throw new IllegalStateException("the dialog's " + label + " defaults to " + (c instanceof Choice ? ((Choice) c).getSelectedItem() : c) + ", not " + item);
	}

	private static void capture(final Rectangle r, final File file) throws AWTException,
		IOException
	{
		final BufferedImage img = new Robot().createScreenCapture(r);
		ImageIO.write(img, "png", file);
		System.out.println("wrote " + file + " (" + r.width + " x " + r.height + ")");
	}
}
