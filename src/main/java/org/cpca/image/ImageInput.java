package org.cpca.image;

import ij.IJ;
import ij.ImagePlus;
import ij.io.Opener;
import ij.io.OpenDialog;
import ij.plugin.FileInfoVirtualStack;
import ij.plugin.FolderOpener;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

import org.cpca.core.Memory;

/**
 * Opens the images the user names: a single file ImageJ can read, or a folder of
 * images opened as one stack. Files are only read, never modified.
 */
public final class ImageInput {

	private ImageInput() {}

	/**
	 * Opens a file with ImageJ, or a folder as an image sequence.
	 * <p>
	 * A folder's images are opened in memory (not as a virtual stack) with ImageJ's
	 * {@link FolderOpener}, in sorted name order with numbers compared by value (so
	 * {@code img2} comes before {@code img10}), as File &gt; Import &gt; Image Sequence
	 * does; hidden files and files that are not images (.txt, .csv, …) are skipped. All
	 * images must have the same width × height and type.
	 *
	 * @throws IllegalArgumentException if the path does not exist, the file cannot be
	 *           read as an image, the folder has no image, or some of its images could not
	 *           be added to the stack
	 */
	public static ImagePlus open(final Path path) {
		return open(path, "image");
	}

	/**
	 * {@link #open(Path)}, naming the input in messages ("target", "background", "mask").
	 * A TIFF's header is checked first ({@link TiffCheck}): image data beyond the end of
	 * the file, or more pixels than fit in memory, are refused before anything is
	 * allocated, and the slices read must be all the header describes. A folder's images
	 * are checked to fit in memory from the first one's size. An uncompressed grey TIFF
	 * stack with one header (as ImageJ writes stacks) is read in bulk by {@link TiffStack},
	 * with ImageJ's values, labels and calibration; any other file by ImageJ's opener.
	 */
	public static ImagePlus open(final Path path, final String role) {
		if (path == null || path.toString().trim().isEmpty()) throw new IllegalArgumentException(
			"the " + role + " path is empty: give an image file or a folder of images");
		if (!Files.exists(path)) throw new IllegalArgumentException(role + " " + path + (Files
			.isSymbolicLink(path) ? " is a symbolic link that cannot be followed (a link " +
				"loop, or its target is missing): give the real file or folder"
				: " does not exist: check the path"));
		if (!Files.isReadable(path)) throw new IllegalArgumentException("cannot read " +
			path + ": check its permissions");
		return Files.isDirectory(path) ? openFolder(path, role) : openFile(path, role);
	}

	private static ImagePlus openFile(final Path file, final String role) {
		final String path = file.toAbsolutePath().toString();
		final TiffCheck tiff = new Opener().getFileType(path) == Opener.TIFF ? TiffCheck.of(
			file) : null;
		if (tiff != null) tiff.requireMemory(file, role);
		else Memory.require("reading " + role + " " + file, estimateFromFileSize(file),
			"crop or bin the image first");
		final ImagePlus stack = tiff == null ? null : TiffStack.open(file, tiff);
		if (stack != null) return stack;
		final Opener opener = new Opener();
		opener.setSilentMode(true);
		IJ.redirectErrorMessages();
		final ImagePlus imp = opener.openImage(path);
		if (imp == null) throw new IllegalArgumentException("cannot read " + file +
			" as an image" + (tiff != null ? " (ImageJ could not decode this TIFF" + (tiff.doubles
				? ", which stores 64-bit floats; save it as 32-bit float TIFF (Image > Type > 32-bit) first)"
				: "; it may use a compression ImageJ does not read)") + ": save it as an " +
					"uncompressed TIFF" : ": use a format ImageJ opens (TIFF, PNG, JPEG, ...) " +
						"or a folder of images"));
		if (tiff != null) tiff.requireSlices(file, imp.getStackSize());
		return imp;
	}

	/**
	 * What a non-TIFF image may take when decoded: compressed formats (PNG, JPEG, GIF)
	 * expand, so a generous factor of the file size; the decoder's own limits hold too.
	 */
	private static long estimateFromFileSize(final Path file) {
		try {
			final String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
			final boolean compressed = n.endsWith(".png") || n.endsWith(".jpg") || n.endsWith(
				".jpeg") || n.endsWith(".gif");
			return Memory.times(Files.size(file), compressed ? 4 : 2);
		}
		catch (final IOException e) {
			return 0;
		}
	}

	/**
	 * The files of a folder that are not read as images (wrong type, hidden, excluded by
	 * extension), by name, for the diagnostics: nothing is skipped silently.
	 */
	public static List<String> skippedFiles(final Path folder) {
		final List<String> out = new ArrayList<>();
		final Set<Path> images = new HashSet<>(images(folder,
			candidates(folder)));
		try (Stream<Path> s = Files.list(folder)) {
			s.sorted().forEach(p -> {
				if (!images.contains(p)) out.add(p.getFileName().toString() + (Files.isDirectory(
					p) ? "/" : ""));
			});
		}
		catch (final IOException e) {
			throw new IllegalArgumentException("cannot list folder " + folder + ": " + e
				.getMessage());
		}
		return out;
	}

	/** "a, b, c" or "a, b, c, d, e and 7 more". */
	private static String names(final List<String> names) {
		final int shown = Math.min(names.size(), 5);
		return String.join(", ", names.subList(0, shown)) + (names.size() > shown ? " and " +
			(names.size() - shown) + " more" : "");
	}

	/** The refusal of a folder without a file that could be an image (empty, or text). */
	private static IllegalArgumentException noCandidates(final Path folder) {
		final List<String> there = skippedFiles(folder);
		return new IllegalArgumentException("folder " + folder + (there.isEmpty()
			? " is empty" : " has no images (it holds " + names(there) + ")") +
			": put the images (one per sample) into it, or give an image file");
	}

	/** The refusal of a folder whose files ImageJ cannot read as images. */
	private static IllegalArgumentException noImages(final Path folder, final int files) {
		return new IllegalArgumentException("folder " + folder + " has no image ImageJ can " +
			"read (" + files + " files): put TIFF, PNG, JPEG, ... images into it");
	}

	private static ImagePlus openFolder(final Path folder, final String role) {
		final List<Path> candidates = candidates(folder);
		if (candidates.isEmpty()) throw noCandidates(folder);
		final Opener probe = new Opener();
		int images = 0;
		Path firstImage = null;
		for (final Path p : candidates)
			if (isImageType(probe.getFileType(p.toString()))) {
				images++;
				if (firstImage == null) firstImage = p;
			}
		if (firstImage != null && probe.getFileType(firstImage.toString()) == Opener.TIFF) {
			final TiffCheck first = TiffCheck.of(firstImage);
			Memory.require("reading " + role + " folder " + folder + " (" + images +
				" images of " + first.width + "×" + first.height + ")", Memory.times(images,
					first.pixelBytes), "use --method online (reads one file at a time), or " +
						"crop or bin the images first");
		}
		final FolderOpener fo = new FolderOpener();
		fo.openAsVirtualStack(false);
		fo.sortFileNames(true);
		fo.sortByMetaData(false);
		IJ.redirectErrorMessages();
		final ImagePlus imp = fo.openFolder(folder.toAbsolutePath().toString());
		if (imp == null || imp.getStackSize() == 0) throw noImages(folder, candidates.size());
		if (imp.getStackSize() < images) throw new IllegalArgumentException("folder " +
			folder + " has " + images + " images but only " + imp.getStackSize() +
			" could be stacked: all images in a folder must have the same width × height and type");
		return imp;
	}

	/**
	 * Opens a file without reading all its slices: a TIFF as a virtual stack (ImageJ's
	 * {@link FileInfoVirtualStack}, one slice read from disk per access); any other format
	 * ImageJ reads is opened in memory, as {@link #open} does. Folders are read file by
	 * file with {@link FolderSource} instead.
	 *
	 * @throws IllegalArgumentException if the path does not exist, is a folder, or cannot be
	 *           read as an image
	 */
	/**
	 * ImageJ's TIFF virtual stack of {@code path} ({@link FileInfoVirtualStack#openVirtual}),
	 * without its side effect on the directory and file name ImageJ remembers (which a
	 * macro's {@code File.directory} and the next Open dialog would show): reading an input
	 * is not the user opening a file.
	 */
	static ImagePlus virtualQuietly(final String path) {
		final String home = OpenDialog.getDefaultDirectory(), dir = OpenDialog
			.getLastDirectory(), name = OpenDialog.getLastName();
		try {
			return FileInfoVirtualStack.openVirtual(path);
		}
		finally {
			if (home != null && !home.equals(OpenDialog.getDefaultDirectory())) OpenDialog
				.setDefaultDirectory(home);
			OpenDialog.setLastDirectory(dir);
			OpenDialog.setLastName(name);
		}
	}

	public static ImagePlus openVirtual(final Path file) {
		if (file == null || !Files.exists(file)) throw new IllegalArgumentException(
			"image path " + file + " does not exist: check the path");
		if (Files.isDirectory(file)) throw new IllegalArgumentException(file +
			" is a folder: read it file by file (FolderSource)");
		if (!Files.isReadable(file)) throw new IllegalArgumentException("cannot read " +
			file + ": check its permissions");
		final String path = file.toAbsolutePath().toString();
		if (new Opener().getFileType(path) != Opener.TIFF) return openFile(file, "image");
		final TiffCheck tiff = TiffCheck.of(file);
		IJ.redirectErrorMessages();
		final ImagePlus imp = virtualQuietly(path);
		if (imp == null) return openFile(file, "image");
		tiff.requireSlices(file, imp.getStackSize());
		return imp;
	}

	/**
	 * The image files of a folder in the order {@link #open} stacks them: regular,
	 * non-hidden files of an image type ImageJ reads, sorted by name with numbers compared
	 * by value.
	 *
	 * @throws IllegalArgumentException if the folder does not exist or has no image
	 */
	public static List<Path> imageFiles(final Path folder) {
		if (folder == null || !Files.isDirectory(folder)) throw new IllegalArgumentException(
			"folder " + folder + " does not exist: check the path");
		final List<Path> candidates = candidates(folder);
		if (candidates.isEmpty()) throw noCandidates(folder);
		final List<Path> out = images(folder, candidates);
		if (out.isEmpty()) throw noImages(folder, candidates.size());
		return out;
	}

	/** The candidates ImageJ reads as images, in the order {@link #open} stacks them. */
	private static List<Path> images(final Path folder, final List<Path> candidates) {
		final Opener probe = new Opener();
		final List<String> names = new ArrayList<>();
		for (final Path p : candidates)
			if (isImageType(probe.getFileType(p.toString()))) names.add(p.getFileName()
				.toString());
		if (names.isEmpty()) return new ArrayList<>();
		final String[] sorted = new FolderOpener().sortFileList(names.toArray(new String[0]));
		final List<Path> out = new ArrayList<>();
		for (final String name : sorted)
			out.add(folder.resolve(name));
		return out;
	}

	/** Regular, non-hidden files that FolderOpener does not exclude by extension. */
	private static List<Path> candidates(final Path folder) {
		final List<Path> out = new ArrayList<>();
		try (Stream<Path> s = Files.list(folder)) {
			s.forEach(p -> {
				final String name = p.getFileName().toString();
				if (!Files.isRegularFile(p) || name.startsWith(".") || name.equals(
					"Thumbs.db") || FolderOpener.excludedFileType(name)) return;
				try {
					if (Files.isHidden(p)) return;
				}
				catch (final IOException e) {
					return;
				}
				out.add(p);
			});
		}
		catch (final IOException e) {
			throw new IllegalArgumentException("cannot list folder " + folder + ": " + e
				.getMessage());
		}
		return out;
	}

	private static boolean isImageType(final int type) {
		switch (type) {
			case Opener.TIFF:
			case Opener.DICOM:
			case Opener.FITS:
			case Opener.PGM:
			case Opener.JPEG:
			case Opener.GIF:
			case Opener.BMP:
			case Opener.PNG:
			case Opener.TIFF_AND_DICOM:
				return true;
			default:
				return false;
		}
	}
}
