#!/usr/bin/env bash
# End-to-end test in a real ImageJ 1.x: Debian's imagej package under xvfb-run, with
# target/Contrastive_PCA-VERSION-imagej.zip unzipped into its folder as a user installs it.
# Macros run (1) the menu commands through ImageJ's own dialogs (run("Contrastive PCA...",
# ...), Sample Data, the menu entries), (2) run("Contrastive PCA Macro Functions") and the
# Ext. functions on the test images, (3) a failing command, which must end its macro, and
# (4) the dialog from the menu with the macro recorder open (src/site/screenshots.sh); the
# script checks what they print and write. Installs what it needs; every run is
# time-bounded.
#
#   .ci/imagej-e2e.sh            (from the project folder; needs root for apt-get)
#
# Results and logs: target/imagej-e2e/ (out/, ijpath/, screens/, imagej.log, bridge.log,
# failing.log).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work="$root/target/imagej-e2e"

need=()
for p in imagej xvfb xauth; do
	dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	timeout 600 apt-get update -qq
	DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq "${need[@]}"
fi
ijjar=/usr/share/java/ij.jar
test -r "$ijjar" || { echo "imagej-e2e: $ijjar is missing after installing imagej" >&2; exit 1; }

# the ImageJ bundle (plugin jar, menu jar, runtime dependencies; ImageJ itself comes from
# Debian), unzipped into a fresh ImageJ folder as the README tells a user to
version=$(sed -n 's:^\t<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
jar="target/Contrastive_PCA_-$version.jar"
cli="target/Contrastive_PCA_-$version-cli.jar"
bundle="target/Contrastive_PCA-$version-imagej.zip"
if [ ! -f "$jar" ] || [ ! -f "$cli" ] || [ ! -f "$bundle" ] ||
	[ -n "$(find src pom.xml plugins -newer "$bundle" -type f | head -1)" ]; then
	timeout 900 mvn -B -q -DskipTests package
fi
rm -rf "$work"
mkdir -p "$work/ijpath" "$work/out"
unzip -q "$bundle" -d "$work/ijpath"

# the test images: the committed ones, else made by the project's generator
images="$root/test-images"
if [ ! -f "$images/target.tif" ] || [ ! -f "$images/background.tif" ]; then
	images="$work/images"
	timeout 300 java -Djava.awt.headless=true -jar "$cli" generate --out "$images" >/dev/null
fi

out="$work/out"
macro="$work/e2e.ijm"
cat > "$macro" <<IJM
// Contrastive PCA end to end in a real ImageJ 1.x (written by .ci/imagej-e2e.sh)
setBatchMode(true);
run("Contrastive PCA Macro Functions");
open("$images/target.tif");
open("$images/background.tif");
Ext.cpcaFit("target.tif", "background.tif", "alpha=auto components=2");
Ext.getAlphaCount(n);
Ext.getAlphas(alphas);
Ext.getNumSamples(samples);
Ext.getEigenvalues(1, ev);
Ext.getSeparation(0, "lda_accuracy", pca);
best = 0;
for (i = 1; i < n; i++) {
	Ext.getSeparation(i, "lda_accuracy", acc);
	if (acc > best) best = acc;
}
Ext.getScores(1, 0, cpc1);
Ext.showEigenImages();
eigenSlices = nSlices;
eigenDepth = bitDepth();
eigenLabel = getInfo("slice.label");
saveAs("Tiff", "$out/eigen-images.tif");
Ext.showScatterPlot();
saveAs("PNG", "$out/scatter.png");
Ext.saveModel(1, "$out/model.json");
Ext.cpcaFit("background.tif", "", "method=pca components=2");
Ext.saveModel(0, "$out/background-pca.json");
Ext.applyModel("$out/background-pca.json", "target.tif");
removed = "";
for (i = 1; i <= nImages; i++) {
	selectImage(i);
	if (startsWith(getTitle(), "Background removed from")) {
		removed = getTitle() + "|" + nSlices;
		saveAs("Tiff", "$out/background-removed.tif");
	}
}
s = "alpha_count=" + n + "\n";
s = s + "alphas=" + alphas + "\n";
s = s + "samples=" + samples + "\n";
s = s + "eigenvalues=" + ev + "\n";
s = s + "pca_lda_accuracy=" + pca + "\n";
s = s + "best_cpca_lda_accuracy=" + best + "\n";
s = s + "eigen_slices=" + eigenSlices + "\n";
s = s + "eigen_bit_depth=" + eigenDepth + "\n";
s = s + "eigen_label=" + eigenLabel + "\n";
s = s + "background_removed=" + removed + "\n";
s = s + "imagej=" + getVersion() + "\n";
File.saveString(s, "$out/results.txt");
// an example macro as a user runs it: every method, one row each in the Results table
runMacro("$root/plugins/Scripts/Plugins/Contrastive_PCA/Examples/Compare_Methods.ijm", "$images/");
m = "";
for (i = 0; i < nResults; i++)
	m = m + getResultString("method", i) + "," + getResult("models", i) + "," +
		getResult("best LDA accuracy", i) + "\n";
File.saveString(m, "$out/methods.csv");
// pixels as samples with a selection as background; it prints to ImageJ's log, which
// is standard output here (imagej.log)
runMacro("$root/plugins/Scripts/Plugins/Contrastive_PCA/Examples/ROI_As_Background.ijm", "$images/");
IJM

echo "imagej-e2e: running the macro in ImageJ ($ijjar) under xvfb-run"
set +e
timeout 180 xvfb-run -a java -Xmx2g -jar "$ijjar" -ijpath "$work/ijpath" -batch "$macro" \
	>"$work/imagej.log" 2>&1
code=$?
set -e
if [ $code -ne 0 ] || [ ! -s "$out/results.txt" ]; then
	echo "imagej-e2e: ImageJ failed (exit code $code; 124 = timed out); its output:" >&2
	cat "$work/imagej.log" >&2
	exit 1
fi

# checks
cat "$out/results.txt"
fail=0
value() { sed -n "s/^$1=//p" "$out/results.txt" | head -1; }
check() { # description, awk condition on $1
	if ! awk -v x="$2" "BEGIN { exit !($3) }"; then
		echo "imagej-e2e: FAILED: $1 (got '$2')" >&2
		fail=1
	fi
}
n=$(value alpha_count)
check "at least α = 0 and one more α" "$n" "x >= 2"
check "α = 0 first" "$(value alphas | cut -d, -f1)" "x == 0"
check "the target's samples" "$(value samples)" "x >= 2"
check "PCA does not separate 0 from 1 (LDA accuracy < 0.75)" "$(value pca_lda_accuracy)" "x < 0.75"
check "cPCA separates 0 from 1 (LDA accuracy >= 0.9)" "$(value best_cpca_lda_accuracy)" "x >= 0.9"
check "two eigen-images per α" "$(value eigen_slices)" "x == 2 * $n"
check "32-bit eigen-images" "$(value eigen_bit_depth)" "x == 32"
case "$(value eigen_label)" in
	"PC1 α=0 λ="*) ;;
	*) echo "imagej-e2e: FAILED: eigen-image label '$(value eigen_label)'" >&2; fail=1 ;;
esac
case "$(value background_removed)" in
	"Background removed from target.tif|"*) ;;
	*) echo "imagej-e2e: FAILED: no background-removed stack" >&2; fail=1 ;;
esac
for f in eigen-images.tif scatter.png model.json background-pca.json background-removed.tif; do
	[ -s "$out/$f" ] || { echo "imagej-e2e: FAILED: $f was not written" >&2; fail=1; }
done
if [ -s "$out/methods.csv" ]; then
	cat "$out/methods.csv"
	check "Compare_Methods.ijm: one row per method" "$(wc -l <"$out/methods.csv")" "x == 7"
	check "Compare_Methods.ijm: cPCA separates 0 from 1 (LDA accuracy >= 0.9)" \
		"$(grep '^cPCA automatic' "$out/methods.csv" | awk -F, '{print $NF}')" "x >= 0.9"
else
	echo "imagej-e2e: FAILED: Compare_Methods.ijm wrote no Results table" >&2
	fail=1
fi
grep -q '^1024 pixels, 8 planes; eigenvalues ' "$work/imagej.log" ||
	{ echo "imagej-e2e: FAILED: ROI_As_Background.ijm did not fit 8 planes of 1024 pixels" >&2; fail=1; }
# a command that throws does not stop a macro: ImageJ logs the exception and goes on
if grep -qE 'Exception|^[[:space:]]+at [[:alnum:]_$.]+\(' "$work/imagej.log"; then
	echo "imagej-e2e: FAILED: ImageJ logged an exception" >&2
	fail=1
fi
grep -q '"format": "contrastive-pca-model"' "$out/model.json" ||
	{ echo "imagej-e2e: FAILED: model.json is not a model file" >&2; fail=1; }
if [ $fail -ne 0 ]; then
	echo "imagej-e2e: ImageJ's output:" >&2
	cat "$work/imagej.log" >&2
	exit 1
fi

# (1) the menu commands through ImageJ's own dialogs, with Fiji's macro keys
line="target=target.tif background_source=image background=background.tif method=cpca alpha_mode=fixed alpha=2 components=2"
bridge="$work/bridge.ijm"
cat > "$bridge" <<IJM
// The menu commands of plain ImageJ 1.x (written by .ci/imagej-e2e.sh)
setBatchMode(true);
open("$images/target.tif");
open("$images/background.tif");
targetSlices = nSlices;
before = nImages;
// the command line of the issue as written: checkboxes left out are unchecked (ImageJ's
// rule, as in Fiji), so it computes and shows nothing
run("Contrastive PCA...", "$line");
unchecked = nImages - before;
run("Contrastive PCA...", "$line show_images show_plots show_tables");
s = "target_slices=" + targetSlices + "\n";
s = s + "unchecked_new_images=" + unchecked + "\n";
s = s + "images=" + nImages + "\n";
for (i = 1; i <= nImages; i++) {
	selectImage(i);
	t = getTitle();
	if (startsWith(t, "Contrastive eigen-images of")) {
		s = s + "eigen_title=" + t + "\n";
		s = s + "eigen_slices=" + nSlices + "\n";
		s = s + "eigen_bit_depth=" + bitDepth() + "\n";
		setSlice(1);
		s = s + "eigen_label1=" + getInfo("slice.label") + "\n";
		setSlice(2);
		s = s + "eigen_label2=" + getInfo("slice.label") + "\n";
		getStatistics(area, mean, min, max, std);
		s = s + "eigen2_std=" + std + "\n";
		saveAs("Tiff", "$out/bridge-eigen-images.tif");
	}
	else if (t != "target.tif" && t != "background.tif") {
		s = s + "plot=" + t + "|" + getWidth() + "x" + getHeight() + "\n";
	}
}
s = s + "components_rows=" + Table.size("cPCA components of target.tif") + "\n";
s = s + "components_columns=" + Table.headings("cPCA components of target.tif") + "\n";
s = s + "eigenvalue1=" + Table.get("eigenvalue", 0, "cPCA components of target.tif") + "\n";
s = s + "eigenvalue2=" + Table.get("eigenvalue", 1, "cPCA components of target.tif") + "\n";
s = s + "alpha=" + Table.get("alpha", 0, "cPCA components of target.tif") + "\n";
s = s + "scores_rows=" + Table.size("cPCA scores of target.tif") + "\n";
// Sample Data: the generator's target, background and labels
close("*");
run("Sample Data");
s = s + "sample_images=" + nImages + "\n";
for (i = 1; i <= nImages; i++) {
	selectImage(i);
	s = s + "sample=" + getTitle() + "|" + nSlices + "\n";
}
s = s + "sample_labels=" + Table.size("target-labels") + "\n";
// the menus: each command once, under its ASCII name
List.setCommands;
names = newArray("Contrastive PCA...", "Explore Alpha...", "Online cPCA star...",
	"Apply Model...", "Batch...", "Sample Data", "Contrastive PCA Macro Functions",
	"Two Stacks", "Compare Methods");
for (i = 0; i < names.length; i++)
	s = s + "command=" + names[i] + "|" + List.get(names[i]) + "\n";
File.saveString(s, "$out/bridge.txt");
IJM
# (3) a command that fails must end its macro: this one has no background
failing="$work/failing.ijm"
cat > "$failing" <<IJM
setBatchMode(true);
open("$images/target.tif");
run("Contrastive PCA...", "target=target.tif background_source=image method=cpca alpha_mode=fixed alpha=2 components=2 show_images");
File.saveString("the macro went on after a failed command", "$out/failing-went-on.txt");
IJM
echo "imagej-e2e: running the menu commands in ImageJ under xvfb-run"
set +e
timeout 300 xvfb-run -a java -Xmx2g -jar "$ijjar" -ijpath "$work/ijpath" -batch "$bridge" \
	>"$work/bridge.log" 2>&1
code=$?
timeout 180 xvfb-run -a java -Xmx1g -jar "$ijjar" -ijpath "$work/ijpath" -batch "$failing" \
	>"$work/failing.log" 2>&1
fcode=$?
set -e
if [ $code -ne 0 ] || [ ! -s "$out/bridge.txt" ]; then
	echo "imagej-e2e: the menu-command macro failed (exit code $code); its output:" >&2
	cat "$work/bridge.log" >&2
	exit 1
fi
cat "$out/bridge.txt"
bvalue() { sed -n "s/^$1=//p" "$out/bridge.txt" | head -1; }
check "the issue's line without show_ keys opens no window" "$(bvalue unchecked_new_images)" "x == 0"
check "two eigen-images" "$(bvalue eigen_slices)" "x == 2"
check "32-bit eigen-images" "$(bvalue eigen_bit_depth)" "x == 32"
check "the second eigen-image is not blank" "$(bvalue eigen2_std)" "x > 0"
case "$(bvalue eigen_label1)|$(bvalue eigen_label2)" in
	"cPC1 "*"=2 "*"|cPC2 "*"=2 "*) ;;
	*) echo "imagej-e2e: FAILED: eigen-image labels '$(bvalue eigen_label1)', '$(bvalue eigen_label2)'" >&2; fail=1 ;;
esac
grep -q '^plot=cPCA scatter plot of target.tif|' "$out/bridge.txt" ||
	{ echo "imagej-e2e: FAILED: no scatter plot window" >&2; fail=1; }
grep -q '^plot=Eigenvalues of target.tif|' "$out/bridge.txt" ||
	{ echo "imagej-e2e: FAILED: no eigenvalue plot window" >&2; fail=1; }
check "the components table: one row per component" "$(bvalue components_rows)" "x == 2"
check "the components table is at alpha = 2" "$(bvalue alpha)" "x == 2"
check "eigenvalues in decreasing order" "$(bvalue eigenvalue1)" "x >= $(bvalue eigenvalue2) && x > 0"
check "the scores table: one row per target slice" "$(bvalue scores_rows)" "x == $(bvalue target_slices)"
check "Sample Data opens two images" "$(bvalue sample_images)" "x == 2"
grep -q '^sample=target.tif|' "$out/bridge.txt" && grep -q '^sample=background.tif|' "$out/bridge.txt" ||
	{ echo "imagej-e2e: FAILED: Sample Data did not open target.tif and background.tif" >&2; fail=1; }
check "Sample Data's labels: one per target slice" "$(bvalue sample_labels)" \
	"x == $(sed -n 's/^sample=target.tif|//p' "$out/bridge.txt")"
while IFS= read -r c; do
	case "$c" in
		*"|") echo "imagej-e2e: FAILED: no menu command '${c%|}'" >&2; fail=1 ;;
	esac
done < <(sed -n 's/^command=//p' "$out/bridge.txt")
if [ -e "$out/failing-went-on.txt" ] || [ $fcode -eq 124 ]; then
	echo "imagej-e2e: FAILED: a failed command did not end its macro (exit code $fcode)" >&2
	cat "$work/failing.log" >&2
	fail=1
fi
grep -q "needs a background" "$work/failing.log" ||
	{ echo "imagej-e2e: FAILED: the failed command's message is not in the output" >&2; cat "$work/failing.log" >&2; fail=1; }
if [ $fail -ne 0 ]; then
	echo "imagej-e2e: the menu-command macro's output:" >&2
	cat "$work/bridge.log" >&2
	exit 1
fi
# the dialog from the menu with the macro recorder open: the recorded line has Fiji's keys
timeout 600 src/site/screenshots.sh "$work/screens" ||
	{ echo "imagej-e2e: FAILED: the dialog and recorder run (src/site/screenshots.sh)" >&2; exit 1; }
echo "imagej-e2e: OK (results in $out)"
