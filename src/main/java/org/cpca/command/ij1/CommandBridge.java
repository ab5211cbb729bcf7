package org.cpca.command.ij1;

import ij.IJ;
import ij.ImagePlus;
import ij.Macro;
import ij.WindowManager;
import ij.gui.GenericDialog;
import ij.macro.Interpreter;
import ij.plugin.frame.Recorder;
import ij.plugin.PlugIn;

import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cpca.analysis.DialogText;
import org.cpca.analysis.ResultWindows;
import org.cpca.command.OpenImages;
import org.cpca.command.TwoStepDialog;
import org.scijava.Cancelable;
import org.scijava.Context;
import org.scijava.Contextual;
import org.scijava.ItemIO;
import org.scijava.ItemVisibility;
import org.scijava.Named;
import org.scijava.command.Command;
import org.scijava.command.CommandInfo;
import org.scijava.command.CommandService;
import org.scijava.log.LogService;
import org.scijava.module.MethodCallException;
import org.scijava.module.Module;
import org.scijava.module.ModuleInfo;
import org.scijava.module.ModuleItem;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;
import org.scijava.service.Service;
import org.scijava.widget.FileWidget;

/**
 * Runs a SciJava command of this plugin in plain ImageJ 1.x (no Fiji, no ImageJ2 layer):
 * its {@code @Parameter} inputs become an ImageJ {@link GenericDialog} (choices,
 * numbers, checkboxes, text, file and folder fields; images as choosers of the open
 * images' titles), whose labels are the parameter names, so the macro keys are the
 * same as in Fiji ({@code run("Contrastive PCA...", "target=target.tif
 * background_source=image ...")}): ImageJ's macro recorder writes them and a macro's
 * options fill the dialog without showing it. The same command class then runs with a
 * SciJava {@link Context} (for its services) and its image outputs are shown, its text
 * outputs logged. A command that fails shows its one-line message and aborts the
 * running macro.
 * <p>
 * Registered by {@code plugins.config} of the {@code -ij1.jar}, which only the ImageJ
 * bundle carries (Fiji lists the commands itself), e.g.
 * {@code Plugins>Contrastive PCA, "Contrastive PCA...",
 * org.cpca.command.ij1.CommandBridge("org.cpca.command.ContrastivePcaCommand")}.
 * A boolean key follows ImageJ's rule: present means checked, absent unchecked.
 */
public class CommandBridge implements PlugIn {

	private static final String NONE = "*None*";

	private static Context context;
	private static volatile boolean active;

	/** Values last chosen in each command's dialog in this session, by command class. */
	private static final Map<String, Map<String, Object>> LAST = new HashMap<>();

	/** True once this bridge has run a command in this JVM (plain ImageJ 1.x). */
	static boolean active() {
		return active;
	}

	@Override
	public void run(final String arg) {
		final Class<? extends Command> type;
		try {
			type = Class.forName(arg, true, CommandBridge.class.getClassLoader()).asSubclass(
				Command.class);
		}
		catch (final ClassNotFoundException | ClassCastException e) {
			IJ.error("Contrastive PCA", "plugins.config names " + arg + ", which is not a " +
				"command of this plugin: reinstall Contrastive PCA");
			return;
		}
		run(type);
	}

	/** Shows {@code type}'s dialog (or reads the macro's options) and runs it. */
	public static void run(final Class<? extends Command> type) {
		final Thread thread = Thread.currentThread();
		final ClassLoader before = thread.getContextClassLoader();
		// SciJava finds its services through the context class loader; in ImageJ 1.x the
		// plugins folder's jars are only visible through the plugin class loader
		thread.setContextClassLoader(CommandBridge.class.getClassLoader());
		try {
			final Command command = type.getDeclaredConstructor().newInstance();
			final List<Field> inputs = inputs(type);
			final ModuleInfo info = describe(type, command);
			if (!harvest(type, info, command, inputs)) return;
			active = true;
			command.run();
			if (command instanceof Cancelable && ((Cancelable) command).isCanceled()) {
				fail(((Cancelable) command).getCancelReason(), true);
				return;
			}
			showOutputs(type, command);
		}
		catch (final ReflectiveOperationException | MethodCallException e) {
			fail("could not start " + type.getSimpleName() + " (" + e + "): reinstall " +
				"Contrastive PCA", false);
		}
		finally {
			thread.setContextClassLoader(before);
		}
	}

	/**
	 * What the dialog shows of {@code command}'s inputs (labels, choices, styles): its
	 * module's items after its initializer ran (a command that is its own module, a
	 * {@code DynamicCommand}, describes its fields there), else its annotations. Gives
	 * the command its context.
	 */
	static ModuleInfo describe(final Class<? extends Command> type, final Command command)
		throws MethodCallException
	{
		if (command instanceof Contextual) ((Contextual) command).setContext(context());
		if (!(command instanceof Module)) return new CommandInfo(type);
		((Module) command).initialize();
		return ((Module) command).getInfo();
	}

	/** The one SciJava context of this ImageJ session, made on first use. */
	static synchronized Context context() {
		if (context == null) context = new Context(CommandService.class, LogService.class);
		return context;
	}

	/**
	 * The input parameters: the command's own fields first, then inherited ones, in
	 * declaration order; no outputs, services, messages or the context.
	 */
	static List<Field> inputs(final Class<?> type) {
		final List<Field> out = new ArrayList<>();
		for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass())
			for (final Field f : c.getDeclaredFields()) {
				final Parameter p = f.getAnnotation(Parameter.class);
				if (p == null || Modifier.isStatic(f.getModifiers()) || p.type() == ItemIO.OUTPUT ||
					p.visibility() == ItemVisibility.MESSAGE || Service.class.isAssignableFrom(f
						.getType()) || Context.class.isAssignableFrom(f.getType())) continue;
				f.setAccessible(true);
				out.add(f);
			}
		return out;
	}

	/** The command's name in ImageJ's menus, e.g. "Contrastive PCA...". */
	static String title(final Class<?> type) {
		final Plugin plugin = type.getAnnotation(Plugin.class);
		final String path = plugin == null ? "" : plugin.menuPath();
		final String leaf = path.substring(path.lastIndexOf('>') + 1).trim();
		return leaf.isEmpty() ? type.getSimpleName() : leaf;
	}

	/**
	 * Fills the inputs from the dialog or the macro options; false if cancelled. A
	 * {@link TwoStepDialog} command gets two dialogs: its first step's fields, then the
	 * fields that choice needs (the method settings first, as in Fiji). A macro's options
	 * fill both; ImageJ's recorder writes both into one line.
	 */
	private static boolean harvest(final Class<?> type, final ModuleInfo info,
		final Command command, final List<Field> inputs) throws IllegalAccessException
	{
		final String name = title(type);
		final boolean ok = harvestSteps(type, info, name, command, inputs);
		if (ok) dropEmptyOptions();
		return ok;
	}

	/** The dialog, or for a {@link TwoStepDialog} its two dialogs; false if cancelled. */
	private static boolean harvestSteps(final Class<?> type, final ModuleInfo info,
		final String name, final Command command, final List<Field> inputs)
		throws IllegalAccessException
	{
		if (!(command instanceof TwoStepDialog)) return harvest(type, info, name, command,
			inputs);
		final TwoStepDialog steps = (TwoStepDialog) command;
		final List<Field> first = new ArrayList<>();
		for (final String key : steps.firstStep())
			for (final Field f : inputs)
				if (f.getName().equals(key)) first.add(f);
		if (!harvest(type, info, name, command, first)) return false;
		final List<Field> second = new ArrayList<>();
		for (final Field f : inheritedFirst(inputs))
			if (!first.contains(f) && steps.needs(f.getName())) second.add(f);
		return harvest(type, info, name.replace("...", "") + ": " + steps.choice(), command,
			second);
	}

	/** A key=value option of a recorded line: a bracketed value, a plain one, or none. */
	private static final Pattern OPTION = Pattern.compile(
		"([A-Za-z0-9_]+)(?:=(?:\\[([^\\]]*)\\]|(\\S*)))?");

	/**
	 * Leaves empty text fields (an unused {@code save_model=[]}) out of the line ImageJ's
	 * macro recorder is writing for this command: a replay leaves them empty anyway.
	 */
	static void dropEmptyOptions() {
		if (!Recorder.record) return;
		final String options = Recorder.getCommandOptions();
		if (options == null || !options.contains("=[]")) return;
		Recorder.resetCommandOptions();
		final Matcher m = OPTION.matcher(options);
		while (m.find()) {
			final String key = m.group(1);
			final String value = m.group(2) != null ? m.group(2) : m.group(3);
			if (value == null) Recorder.recordOption(key); // a checked box
			else if (!value.isEmpty()) Recorder.recordOption(key, value);
		}
	}

	/** The fields of the topmost superclass first, then down to the command's own. */
	private static List<Field> inheritedFirst(final List<Field> inputs) {
		final List<Class<?>> chain = new ArrayList<>();
		for (final Field f : inputs)
			if (!chain.contains(f.getDeclaringClass())) chain.add(0, f.getDeclaringClass());
		final List<Field> out = new ArrayList<>();
		for (final Class<?> c : chain)
			for (final Field f : inputs)
				if (f.getDeclaringClass() == c) out.add(f);
		return out;
	}

	/**
	 * One dialog of {@code inputs} (none: nothing to ask), described by {@code info}'s
	 * items (labels, choices, styles); false if cancelled.
	 */
	private static boolean harvest(final Class<?> type, final ModuleInfo info,
		final String name, final Command command, final List<Field> inputs)
		throws IllegalAccessException
	{
		if (inputs.isEmpty()) return true;
		final Map<String, Object> last = LAST.computeIfAbsent(type.getName(),
			k -> new HashMap<>());
		final String[] titles = imageTitles();
		final boolean macro = Macro.getOptions() != null;
		final GenericDialog gd = new GenericDialog(name.replace("...", ""));
		int image = 0;
		for (final Field f : inputs) {
			final ModuleItem<?> p = info.getInput(f.getName());
			final String key = f.getName();
			final Class<?> t = f.getType();
			// a macro gets the command's defaults for keys it leaves out (reproducible), a
			// dialog the values last chosen in this session
			final Object value = !macro && last.containsKey(key) ? last.get(key) : f.get(
				command);
			if (t == ImagePlus.class) {
				if (titles.length == 0 && p.isRequired()) {
					fail(name + ": there is no open image for " + key + ": open the images " +
						"first (e.g. Plugins > Contrastive PCA > Sample Data)", false);
					return false;
				}
				final String[] items = p.isRequired() ? titles : prepend(NONE, titles);
				String initial = value instanceof String && Arrays.asList(items).contains(value)
					? (String) value : null;
				// (a macro that leaves a key out keeps its old default, none)
				final boolean another = !macro && OpenImages.ANOTHER_IMAGE.contains(key);
				if (initial == null) initial = initialImage(p.isRequired(), another, titles, image);
				if (p.isRequired() || another) image++;
				gd.addChoice(key, items.length == 0 ? new String[] { NONE } : items, initial);
			}
			else if (t == boolean.class || t == Boolean.class) gd.addCheckbox(key,
				Boolean.TRUE.equals(value));
			else if (t == int.class || t == long.class || t == Integer.class ||
				t == Long.class) gd.addNumericField(key, ((Number) value).doubleValue(), 0);
			else if (t == double.class || t == float.class || t == Double.class ||
				t == Float.class)
			{
				final double d = ((Number) value).doubleValue();
				final boolean tiny = d != 0 && Math.abs(d) < 1e-3;
				gd.addNumericField(key, d, tiny ? -2 : d == Math.rint(d) ? 0 : 3, tiny ? 8 : 6,
					null);
			}
			else if (t == File.class) {
				final String path = value == null ? "" : value.toString();
				final String style = String.valueOf(p.getWidgetStyle());
				if (style.contains(FileWidget.DIRECTORY_STYLE) && !style.contains(
					FileWidget.FILE_AND_DIRECTORY_STYLE)) gd.addDirectoryField(key, path, 30);
				else gd.addFileField(key, path, 30);
			}
			else if (t == String.class && !choices(p).isEmpty()) {
				final List<String> choices = choices(p);
				final String s = value == null ? choices.get(0) : value.toString();
				gd.addChoice(key, choices.toArray(new String[0]), choices.contains(s) ? s
					: choices.get(0));
			}
			else if (t == String.class) gd.addStringField(key, value == null ? "" : value
				.toString(), 20);
			else throw new IllegalStateException(type.getName() + "." + key +
				" has a type the ImageJ 1.x dialog cannot show: " + t.getName());
		}
		if (!macro) gd.addHelp(helpText(info, name, inputs));
		gd.showDialog();
		if (gd.wasCanceled()) return false;
		for (final Field f : inputs) {
			final String key = f.getName();
			final Class<?> t = f.getType();
			final Object v;
			if (t == ImagePlus.class) {
				final String title = gd.getNextChoice();
				final ImagePlus imp = NONE.equals(title) ? null : WindowManager.getImage(title);
				if (imp == null && !NONE.equals(title)) {
					fail("no open image is called '" + title + "' (for " + key + "): open it " +
						"first or give the title of an open image", false);
					return false;
				}
				last.put(key, title);
				v = imp;
			}
			else if (t == boolean.class || t == Boolean.class) v = gd.getNextBoolean();
			else if (t == File.class) {
				final String path = gd.getNextString().trim();
				v = path.isEmpty() ? null : new File(path);
			}
			else if (t == String.class && !choices(info.getInput(key)).isEmpty()) v = gd
				.getNextChoice();
			else if (t == String.class) v = gd.getNextString();
			else {
				final double d = gd.getNextNumber();
				if (Double.isNaN(d)) {
					fail(key + " must be a number: give e.g. " + key + "=" + f.get(command), false);
					return false;
				}
				if ((t == int.class || t == Integer.class || t == long.class ||
					t == Long.class) && d != Math.rint(d))
				{
					fail(key + "=" + d + " must be a whole number", false);
					return false;
				}
				if (t == int.class || t == Integer.class) v = (int) d;
				else if (t == long.class || t == Long.class) v = (long) d;
				else if (t == float.class || t == Float.class) v = (float) d;
				else v = d;
			}
			if (t != ImagePlus.class) last.put(key, v);
			f.set(command, v);
		}
		return true;
	}

	/** A text input's choices (none: a free text). */
	private static List<String> choices(final ModuleItem<?> item) {
		final List<String> out = new ArrayList<>();
		if (item.getChoices() != null) for (final Object c : item.getChoices())
			out.add(String.valueOf(c));
		return out;
	}

	/** The parameters' labels and descriptions, for the dialog's Help button. */
	private static String helpText(final ModuleInfo info, final String name,
		final List<Field> inputs)
	{
		final StringBuilder sb = new StringBuilder("<html><h2>").append(escape(name))
			.append("</h2><p>Macro keys are the field names.</p><dl>");
		for (final Field f : inputs) {
			final ModuleItem<?> p = info.getInput(f.getName());
			sb.append("<dt><b>").append(f.getName().replace('_', ' ')).append("</b> (")
				.append(escape(String.valueOf(p.getLabel()))).append(")</dt><dd>").append(escape(
					String.valueOf(p.getDescription()))).append("</dd>");
		}
		return sb.append("</dl></html>").toString();
	}

	private static String escape(final String s) {
		return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
	}

	private static String[] imageTitles() {
		return titles(OpenImages.ordered());
	}

	/**
	 * The open images' titles in the order the image fields take them as defaults
	 * ({@link OpenImages#ordered}): an eigen-image window is not a target.
	 */
	static String[] imageTitles(final List<ImagePlus> open, final ImagePlus current) {
		return titles(OpenImages.ordered(open, current));
	}

	private static String[] titles(final List<ImagePlus> images) {
		final String[] out = new String[images.size()];
		for (int i = 0; i < out.length; i++)
			out[i] = images.get(i).getTitle();
		return out;
	}

	/** The default of an image field in a dialog ({@link OpenImages#initial}). */
	static String initialImage(final boolean required, final boolean another,
		final String[] titles, final int next)
	{
		final int i = OpenImages.initial(required, another, titles.length, next);
		return i < 0 ? NONE : titles[i];
	}

	private static String[] prepend(final String first, final String[] rest) {
		final String[] out = new String[rest.length + 1];
		out[0] = first;
		System.arraycopy(rest, 0, out, 1, rest.length);
		return out;
	}

	/** Shows the image outputs and logs the text outputs of a finished command. */
	private static void showOutputs(final Class<?> type, final Command command)
		throws IllegalAccessException
	{
		final Map<String, Object> outputs = new LinkedHashMap<>();
		for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass())
			for (final Field f : c.getDeclaredFields()) {
				final Parameter p = f.getAnnotation(Parameter.class);
				if (p == null || p.type() != ItemIO.OUTPUT) continue;
				f.setAccessible(true);
				outputs.put(f.getName(), f.get(command));
			}
		for (final Object v : outputs.values()) {
			if (v instanceof ImagePlus) ResultWindows.mark((ImagePlus) v).show();
			else if (v instanceof String && !((String) v).isEmpty()) IJ.log((String) v);
			else if (v instanceof Named) IJ.log(((Named) v).getName());
		}
		ResultWindows.tileLatest();
	}

	/**
	 * A failure: outside a macro the message is shown (unless {@code shown}: the command
	 * has shown it already); in a macro the macro ends here, so that it does not carry
	 * on with missing results: as a macro error naming the line (and the message in the
	 * Log), or (message already shown) as ImageJ's "Macro canceled".
	 */
	private static void fail(final String message, final boolean shown) {
		final Interpreter interp = Interpreter.getInstance();
		if (interp == null && Macro.getOptions() == null) {
			if (!shown) IJ.error("Contrastive PCA", DialogText.wrap(message));
			return;
		}
		if (!shown) IJ.log("Contrastive PCA: " + message);
		if (interp == null) {
			Macro.abort(); // options but no interpreter: ends IJ.run's caller if it can
			return;
		}
		// with ImageJ's window and a message not yet shown: the macro error dialog naming
		// the line; else (ImageJ -batch, where that dialog would wait for ever, or the
		// message already shown) the macro just ends here
		if (shown || IJ.getInstance() == null) interp.setIgnoreErrors(true);
		interp.abort(DialogText.forMacroError("Contrastive PCA: " + message));
	}
}
