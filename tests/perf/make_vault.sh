#!/usr/bin/env bash
# Writes a synthetic vault of N memories (default 10000) into DIR, deterministically:
# keywords drawn from a 2,000-word vocabulary, topics from 40 clusters, dates spread over a
# year, a tenth of the memories long enough to be compress candidates, 2% tombstoned.
#   tests/perf/make_vault.sh DIR [N]
set -euo pipefail
dir=$1
count=${2:-10000}
mkdir -p "$dir/.memory/10-Memories"
awk -v n="$count" -v dir="$dir/.memory/10-Memories" '
function rnd(m) { seed = (seed * 1103515245 + 12345) % 2147483648; return int(seed / 65536) % m }
function date(offset,   y, m, d) {
  # offset days before 2026-11-30, on a 360-day calendar that stays valid
  m = 11 - int(offset / 30); d = 28 - (offset % 28); y = 2026
  while (m < 1) { m += 12; y -= 1 }
  return sprintf("%04d-%02d-%02d", y, m, d)
}
BEGIN {
  seed = 42
  split("CONFIG WORKFLOW PATTERN TECHNIQUE INSIGHT", cats, " ")
  for (i = 0; i < n; i++) {
    id = sprintf("MEM-synthetic-%05d", i)
    file = dir "/" id ".md"
    created = rnd(360); retrieved = rnd(4) == 0 ? "" : date(rnd(created + 1))
    kw = ""
    for (k = 0; k < 6 + rnd(5); k++) kw = kw "  - w" rnd(2000) "\n"
    printf "---\ntitle: \"Synthetic memory %d\"\ncreated: %s\ntags: [%s]\ntopic: \"t%d/sub%d\"\n", \
      i, date(created), cats[1 + rnd(5)], rnd(40), rnd(5) > file
    printf "source: \"generator\"\nmodified: %s\nkeywords:\n%s", date(created), kw > file
    printf "summary: \"A synthetic memory for benchmarks\"\nretrieval_count: %d\nlast_retrieved: %s\n", \
      retrieved == "" ? 0 : 1 + rnd(20), retrieved > file
    if (rnd(50) == 0) printf "status: tombstoned\ntombstoned_at: %s\ntombstone_reason: \"purge\"\n", date(rnd(20)) > file
    printf "---\n\n# Synthetic memory %d\n\n", i > file
    words = rnd(10) == 0 ? 800 : 40 + rnd(200)
    line = ""
    for (w = 0; w < words; w++) { line = line "word" rnd(5000) " "; if (w % 12 == 11) { print line > file; line = "" } }
    print line "\n\n## Connections\n<!-- Add links to related memories using [[filename]] syntax -->" > file
    close(file)
  }
}'
