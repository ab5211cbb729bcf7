// A folder of stacks in batch: every .tif of the input folder is fitted against the same
// background; eigen-images, scatter plot and model of each go to the output folder.
// Argument (optional): "input=DIR background=FILE output=DIR"; otherwise asked for.
// In Fiji, also: run("Batch...", "target=DIR background=FILE out=DIR per_file method=cpca alpha_mode=auto components=2");
// or headless: ImageJ-linux64 --headless --run "Batch..." "target='DIR',background='FILE',out='DIR',per_file=true"
arg = getArgument();
input = call("ij.Macro.getValue", arg + " ", "input", "");
background = call("ij.Macro.getValue", arg + " ", "background", "");
output = call("ij.Macro.getValue", arg + " ", "output", "");
if (input == "") input = getDirectory("Folder of target stacks");
if (background == "") background = File.openDialog("Background stack");
if (output == "") output = getDirectory("Output folder");
if (!endsWith(input, "/") && !endsWith(input, File.separator)) input = input + File.separator;
if (!endsWith(output, "/") && !endsWith(output, File.separator)) output = output + File.separator;
setBatchMode(true);
run("Contrastive PCA Macro Functions");
open(background);
bg = getTitle();
files = getFileList(input);
done = 0;
for (i = 0; i < files.length; i++) {
	if (!endsWith(toLowerCase(files[i]), ".tif") || input + files[i] == background) continue;
	open(input + files[i]);
	t = getTitle();
	name = File.nameWithoutExtension;
	Ext.cpcaFit(t, bg, "alpha=auto components=2");
	Ext.showEigenImages();
	saveAs("Tiff", output + name + "-eigen-images.tif");
	close();
	Ext.showScatterPlot();
	saveAs("PNG", output + name + "-scatter.png");
	close();
	Ext.saveModel(1, output + name + "-model.json");
	selectImage(t);
	close();
	done++;
}
print(done + " stack(s) done; results in " + output);
