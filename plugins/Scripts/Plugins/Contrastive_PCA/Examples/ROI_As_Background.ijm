// Pixels as samples with a selection as background: the pixels inside the selection are
// the background, every pixel of the image is a target sample, and the planes (channels,
// slices) are the features. Shows one score image per component.
// Argument (optional): the folder holding target.tif; its first 8 slices are used as
// "channels" here, with the left quarter of the image as background region.
dir = getArgument();
if (dir == "") dir = getDirectory("Folder with target.tif");
if (!endsWith(dir, File.separator) && !endsWith(dir, "/")) dir = dir + File.separator;
setBatchMode(true);
run("Contrastive PCA Macro Functions");
open(dir + "target.tif"); // a copy of its own: renamed and cut to 8 slices below
rename("channels");
// keep the first 8 slices (as Image > Stacks > Tools > Make Substack... does, but
// without its dialog, so that the macro also runs headless)
while (nSlices > 8) {
	setSlice(nSlices);
	run("Delete Slice");
}
planes = nSlices;
makeRectangle(0, 0, getWidth() / 4, getHeight());
Ext.cpcaFit("channels", "selection", "samples=pixels alpha=2 components=2");
Ext.getNumSamples(n);
Ext.getEigenvalues(0, ev);
print(n + " pixels, " + planes + " planes; eigenvalues " + ev);
Ext.showEigenImages();   // the score images (pixels as samples)
Ext.showScatterPlot();   // scatter of the pixels and the components across planes
setBatchMode("exit and display");
// Fiji menu command: run("Contrastive PCA...", "target=channels background_source=selection samples=pixels method=cpca alpha_mode=fixed alpha=2 components=2 show_images show_plots show_tables");
