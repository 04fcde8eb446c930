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
matches() {  # deal sequences of each pairing: 2 players, then 4
  if [ "$1" = 2 ]; then echo "100 200 30 30"; else echo "25 100 10 10"; fi
}
for players in 2 4; do  # 2 players first: the goals are measured there
  read -r hg gr hr ho <<< "$(matches "$players")"
  for take in match any; do
    run "$players" "$take" hard,greedy "$hg" hg
    run "$players" "$take" greedy,random "$gr" gr
    run "$players" "$take" hard,random "$hr" hr
    run "$players" "$take" hard,oracle "$ho" ho
  done
done
