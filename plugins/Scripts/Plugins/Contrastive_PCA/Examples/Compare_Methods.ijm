// Every method of the suite on the same target and background, side by side: for each,
// the number of models it returns and the best separation of the target's two classes
// (slice labels 0/1: LDA accuracy on the first two components) among them, in a table.
// UCA and rPCA also take several backgrounds, as comma-separated titles
// ("bg1.tif,bg2.tif"); here they get the one background.
// Defaults only, so the table shows each method as a first-time user gets it (on the
// bundled test images every method but PCA separates the two classes).
// Works in ImageJ 1.x and Fiji. Argument (optional): the folder holding target.tif and
// background.tif (e.g. the project's test-images/); without it a folder is asked for.
dir = getArgument();
if (dir == "") dir = getDirectory("Folder with target.tif and background.tif");
if (!endsWith(dir, File.separator) && !endsWith(dir, "/")) dir = dir + File.separator;
setBatchMode(true);
run("Contrastive PCA Macro Functions");
if (!isOpen("target.tif")) open(dir + "target.tif"); // not twice: two images of one title are refused
if (!isOpen("background.tif")) open(dir + "background.tif"); // not twice: two images of one title are refused

names = newArray("PCA", "cPCA automatic alpha", "cPCA alpha = inf",
	"cPCA* automatic beta", "kernel cPCA rbf automatic alpha", "UCA", "rPCA elbow rule");
options = newArray("method=pca", "method=cpca alpha=auto", "method=cpca alpha=inf",
	"method=star beta=auto", "method=kernel kernel=rbf alpha=auto", "method=uca",
	"method=rpca");
run("Clear Results");
for (m = 0; m < names.length; m++) {
	background = "background.tif";
	if (m == 0) background = "";
	Ext.cpcaFit("target.tif", background, options[m] + " components=2");
	Ext.getAlphaCount(models);
	best = 0;
	for (i = 0; i < models; i++) {
		Ext.getSeparation(i, "lda_accuracy", accuracy);
		best = maxOf(best, accuracy);
	}
	setResult("method", m, names[m]);
	setResult("models", m, models);
	setResult("best LDA accuracy", m, best);
}
updateResults();
setBatchMode("exit and display");
