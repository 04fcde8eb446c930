#!/usr/bin/env bash
# The strength table of the README: duplicate tournaments, 2 and 4 players, both take rules.
# Usage: bash benchmarks/strength.sh [OUTDIR]   (about an hour on 2 cores; --jobs 2)
# Each line writes OUTDIR/<players>p-<take>-<pair>.json and .txt (the printed table).
set -euo pipefail
out=${1:-strength}
mkdir -p "$out"
run() {  # players take bots deal-sequences name
  foxtrot tournament --bots "$3" --players "$1" --take "$2" --matches "$4" --duplicate \
    --seed 2026 --jobs 2 --expert-seconds 0 --json "$out/$1p-$2-$5.json" > "$out/$1p-$2-$5.txt"
}
for take in match any; do
  run 2 "$take" hard,greedy 100 hg
  run 2 "$take" greedy,random 200 gr
  run 2 "$take" hard,random 30 hr
  run 2 "$take" hard,oracle 30 ho
done
for take in match any; do
  run 4 "$take" hard,greedy 25 hg
  run 4 "$take" greedy,random 100 gr
  run 4 "$take" hard,random 10 hr
  run 4 "$take" hard,oracle 10 ho
done
