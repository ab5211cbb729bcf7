#!/usr/bin/env bash
# Screenshots of the real ImageJ 1.x windows for the documentation: Debian's ImageJ
# (imagej package) under xvfb-run with target/Contrastive_PCA-VERSION-imagej.zip
# installed, driven as a user would by src/site/Screenshots.java (Sample Data, then
# Contrastive PCA... from the menu with the macro recorder open, OK, OK with the defaults;
# the results must come out tiled).
#
#   src/site/screenshots.sh [OUT]     (OUT defaults to docs/images)
#
# Writes OUT/imagej-dialog-choice.png, OUT/imagej-dialog.png, OUT/imagej-recorder.png, OUT/imagej-results.png and OUT/recorded.txt (what the
# macro recorder wrote), and fails unless the recorder wrote the command with Fiji's
# macro keys. Needs: imagej, xvfb, xauth (apt-get install -y imagej xvfb xauth).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-docs/images}")
ijjar=/usr/share/java/ij.jar
test -r "$ijjar" || { echo "screenshots: $ijjar is missing: apt-get install -y imagej xvfb xauth" >&2; exit 1; }
version=$(sed -n 's:^\t<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
bundle="target/Contrastive_PCA-$version-imagej.zip"
if [ ! -f "$bundle" ] || [ -n "$(find src pom.xml plugins -newer "$bundle" -type f | head -1)" ]; then
	timeout 900 mvn -B -q -DskipTests package
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ij" "$out"
unzip -q "$bundle" -d "$work/ij"
# ImageJ keeps its preferences in the home folder: a fresh one each time
timeout 300 env HOME="$work" xvfb-run -a -s "-screen 0 1560x1000x24" \
	java -Dplugins.dir="$work/ij" -cp "$ijjar" src/site/Screenshots.java "$out"
line=$(grep '^run("Contrastive PCA...", ' "$out/recorded.txt" || true)
echo "screenshots: recorded: $line"
for key in "target=target.tif" "background_source=image" "background=background.tif" \
	"method=[Contrastive PCA (cpca)]" "alpha_mode=auto" "alpha=2" "components=2" "show_images"; do
	case " ${line#*\", \"} " in
		*" $key "*|*" $key\""*) ;;
		*) echo "screenshots: FAILED: the recorded line lacks $key" >&2; exit 1 ;;
	esac
done
# only what the chosen method (cPCA from an image) needs: no other method's keys, no
# unused background fields, no empty file field
for key in beta_mode= kernel= landmarks= k_b= variant= background_mask= more_backgrounds= save_model=; do
	case " ${line#*\", \"} " in
		*" $key"*) echo "screenshots: FAILED: the recorded line has $key, which this run does not need" >&2; exit 1 ;;
	esac
done
echo "screenshots: OK ($out)"
