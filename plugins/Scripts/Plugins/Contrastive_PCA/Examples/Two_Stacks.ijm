// Contrastive PCA of two stacks: what varies in the target and not in the background.
// Works in ImageJ 1.x and Fiji. Argument (optional): the folder holding target.tif and
// background.tif (e.g. the project's test-images/); without it a folder is asked for.
dir = getArgument();
if (dir == "") dir = getDirectory("Folder with target.tif and background.tif");
if (!endsWith(dir, File.separator) && !endsWith(dir, "/")) dir = dir + File.separator;
setBatchMode(true);
run("Contrastive PCA Macro Functions");
if (!isOpen("target.tif")) open(dir + "target.tif"); // not twice: two images of one title are refused
if (!isOpen("background.tif")) open(dir + "background.tif"); // not twice: two images of one title are refused
// automatic alpha: alpha = 0 (PCA) first, then the representative alpha values
Ext.cpcaFit("target.tif", "background.tif", "alpha=auto components=2");
Ext.getAlphas(alphas);
print("chosen alpha: " + alphas);
a = split(alphas, ",");
for (i = 0; i < a.length; i++) {
	Ext.getEigenvalues(i, ev);
	print("alpha = " + a[i] + ": eigenvalues " + ev);
}
Ext.showEigenImages();
Ext.showScatterPlot();
Ext.showTables();
setBatchMode("exit and display");
// In Fiji the same with the menu command:
// run("Contrastive PCA...", "target=target.tif background_source=image background=background.tif samples=slices method=cpca alpha_mode=auto components=2 show_images show_plots show_tables");
