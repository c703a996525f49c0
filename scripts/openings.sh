#!/usr/bin/env bash
# Fetches the lichess opening table (CC0) into data/openings/.
# Usage: scripts/openings.sh [COMMIT]   (default: the commit the repo ships)
set -euo pipefail
cd "$(dirname "$0")/.."
commit="${1:-51b886249b9e418498d25b6e39b926c3de99c29a}"
base="https://raw.githubusercontent.com/lichess-org/chess-openings/$commit"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for part in a b c d e; do
    curl -fsSL "$base/$part.tsv" -o "$tmp/$part.tsv"
    head -n1 "$tmp/$part.tsv" | grep -qx $'eco\tname\tpgn' ||
        { echo "$part.tsv: unexpected header" >&2; exit 1; }
done
mv "$tmp"/*.tsv data/openings/
if [ "$commit" != 51b886249b9e418498d25b6e39b926c3de99c29a ]; then
    sed -i "s/51b886249b9e418498d25b6e39b926c3de99c29a/$commit/" data/openings/README.md scripts/openings.sh
fi
echo "data/openings: $(cat data/openings/*.tsv | grep -vc '^eco') openings at $commit"
