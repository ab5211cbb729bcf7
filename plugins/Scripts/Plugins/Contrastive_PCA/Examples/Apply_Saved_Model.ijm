// Applying a saved model: fit PCA on the background, save it, and apply it to the target.
// The "background removed" stack is the target minus its projection on the background's
// main directions. Argument (optional): the folder holding target.tif and background.tif.
// With a model from elsewhere, only the last lines are needed; in Fiji also
// run("Apply Model...", "model=/path/model.json input=target.tif show_reconstruction show_background_removed show_scores");
dir = getArgument();
if (dir == "") dir = getDirectory("Folder with target.tif and background.tif");
if (!endsWith(dir, File.separator) && !endsWith(dir, "/")) dir = dir + File.separator;
setBatchMode(true);
run("Contrastive PCA Macro Functions");
if (!isOpen("target.tif")) open(dir + "target.tif"); // not twice: two images of one title are refused
if (!isOpen("background.tif")) open(dir + "background.tif"); // not twice: two images of one title are refused
model = getDirectory("temp") + "cpca-background-pca.json";
Ext.cpcaFit("background.tif", "", "method=pca components=2");
Ext.saveModel(0, model);
Ext.applyModel(model, "target.tif");   // reconstruction and background-removed stacks
setBatchMode("exit and display");
