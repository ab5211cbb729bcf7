// Automatic alpha first, then a fit at one chosen alpha: the alpha whose first component separates
// the slice-label classes best (or the first alpha > 0 without classes), saved as a model.
// Argument (optional): the folder holding target.tif and background.tif.
dir = getArgument();
if (dir == "") dir = getDirectory("Folder with target.tif and background.tif");
if (!endsWith(dir, File.separator) && !endsWith(dir, "/")) dir = dir + File.separator;
setBatchMode(true);
run("Contrastive PCA Macro Functions");
if (!isOpen("target.tif")) open(dir + "target.tif"); // not twice: two images of one title are refused
if (!isOpen("background.tif")) open(dir + "background.tif"); // not twice: two images of one title are refused
Ext.cpcaFit("target.tif", "background.tif", "alpha=auto components=2");
Ext.getAlphas(alphas);
a = split(alphas, ",");
Ext.getLabels(labels);
chosen = 1;
if (labels != "") {
	best = -1;
	for (i = 1; i < a.length; i++) {
		Ext.getSeparation(i, "lda_accuracy", acc);
		if (acc > best) { best = acc; chosen = i; }
	}
	print("best separation (LDA accuracy " + best + ") at alpha = " + a[chosen]);
}
Ext.cpcaFit("target.tif", "background.tif", "alpha=" + a[chosen] + " components=2");
Ext.showEigenImages();
Ext.showScatterPlot();
Ext.saveModel(0, getDirectory("temp") + "cpca-model.json");
print("model saved to " + getDirectory("temp") + "cpca-model.json");
setBatchMode("exit and display");
