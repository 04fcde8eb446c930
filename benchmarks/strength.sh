#!/usr/bin/env bash
# The strength table of docs/reports/strength.md: hard against greedy in duplicate matches to
# 200, at 2, 3, 4 and 6 players, under both take rules (the expert with its own sample budget and no time
# limit, so the matches are repeatable).  Then `python benchmarks/strength_table.py OUTDIR`.
# Usage: bash benchmarks/strength.sh [OUTDIR]
#   MATCHES="100 20 20 10"  deal sequences at 2, 3, 4 and 6 players (each is played once per
#                           seat rotation: 2 matches at 2, 4 and 6 players; 6 at 3 players, in
#                           two lineups, hard,greedy,greedy and greedy,hard,hard, so that the
#                           seats are split evenly)
#   PLAYERS="2 3 4 6"  TAKES="match any"  JOBS=2  SEED=2026
#   EXTRA=1  also greedy vs random, hard vs random and hard vs oracle at 2 players
#   SUFFIX=-s2027  appended to the file names: chunks with different seeds, which
#                  strength_table.py adds up (SEED=2027 SUFFIX=-s2027 ...)
# Each run writes OUTDIR/<players>p-<take>-<pair>.json and .txt (the printed table).  On a busy
# machine run it under `nice -n 10`.  Hours on 2 cores: at 4 and 6 players a match is several
# deals of 25 to 50 searches for each expert seat.
set -euo pipefail
out=${1:-strength}
mkdir -p "$out"
read -r m2 m3 m4 m6 <<< "${MATCHES:-100 20 20 10}"
run() {  # players take bots deal-sequences name
  foxtrot tournament --bots "$3" --players "$1" --take "$2" --matches "$4" --duplicate \
    --seed "${SEED:-2026}" --jobs "${JOBS:-2}" --expert-seconds 0 \
    --json "$out/$1p-$2-$5${SUFFIX:-}.json" > "$out/$1p-$2-$5${SUFFIX:-}.txt"
}
for players in ${PLAYERS:-2 3 4 6}; do
  for take in ${TAKES:-match any}; do
    case $players in
      2) run 2 "$take" hard,greedy "$m2" hg ;;
      3) run 3 "$take" hard,greedy,greedy "$m3" hgg
         run 3 "$take" greedy,hard,hard "$m3" ghh ;;
      4) run 4 "$take" hard,greedy "$m4" hg ;;
      *) run "$players" "$take" hard,greedy "$m6" hg ;;
    esac
    if [ "${EXTRA:-0}" = 1 ] && [ "$players" = 2 ]; then
      run 2 "$take" greedy,random 200 gr
      run 2 "$take" hard,random 30 hr
      run 2 "$take" hard,oracle 30 ho
    fi
  done
done
