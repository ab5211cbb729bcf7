#!/usr/bin/env bash
# End-to-end test of the macro extension in a real ImageJ 1.x: Debian's imagej package
# under xvfb-run, the built jar (and its dependencies) in the plugins folder, a macro that
# runs run("Contrastive PCA Macro Functions") and the Ext. functions on the test images,
# and checks of the files it writes. Installs what it needs; every run is time-bounded.
#
#   .ci/imagej-e2e.sh            (from the project folder; needs root for apt-get)
#
# Results and logs: target/imagej-e2e/ (out/, ijpath/, imagej.log).
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

# the plugin jar and its runtime dependencies (ImageJ itself comes from Debian)
version=$(sed -n 's:^\t<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
jar="target/Contrastive_PCA_-$version.jar"
cli="target/Contrastive_PCA_-$version-cli.jar"
if [ ! -f "$jar" ] || [ ! -f "$cli" ] || [ -n "$(find src pom.xml -newer "$jar" -type f | head -1)" ]; then
	timeout 900 mvn -B -q -DskipTests package
fi
rm -rf "$work"
mkdir -p "$work/ijpath/plugins/jars" "$work/out"
cp "$jar" "$work/ijpath/plugins/"
timeout 600 mvn -B -q dependency:copy-dependencies -DincludeScope=runtime \
	-DexcludeArtifactIds=ij -DoutputDirectory="$work/ijpath/plugins/jars"

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
runMacro("$root/plugins/Scripts/Plugins/Contrastive_PCA/Compare_Methods.ijm", "$images/");
m = "";
for (i = 0; i < nResults; i++)
	m = m + getResultString("method", i) + "," + getResult("models", i) + "," +
		getResult("best LDA accuracy", i) + "\n";
File.saveString(m, "$out/methods.csv");
// pixels as samples with a selection as background; it prints to ImageJ's log, which
// is standard output here (imagej.log)
runMacro("$root/plugins/Scripts/Plugins/Contrastive_PCA/ROI_As_Background.ijm", "$images/");
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
	"cPC1 α=0 λ="*) ;;
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
echo "imagej-e2e: OK (results in $out)"
