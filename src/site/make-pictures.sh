#!/usr/bin/env bash
# Renders the README's pictures headless from the bundled test images (./cpca demo) and
# copies them into src/site/images/. Run from anywhere; commits are up to you.
set -euo pipefail
cd "$(dirname "$0")/../.."
./cpca demo --out target/pictures >/dev/null
for f in scatter eigen_images variance_pairs; do
	cp "target/pictures/plots/$f.png" "src/site/images/demo-$f.png"
done
echo "pictures written to src/site/images/"
