#!/usr/bin/env python3
"""The health report's scoring in Python, with PyYAML's C loader (libyaml): the baseline
`bench/run` compares `git vault distill --json` with. Reads every memory file of the vault in
the current directory, parses its frontmatter, computes the four components, the composite and
the classification the way `git vault distill` does, and prints one JSON document. It
skips what git-vault validates (schema findings), so it is a floor, not a twin.

    python3 bench/reference_score.py [--today YYYY-MM-DD]
"""

import datetime
import json
import os
import sys

import yaml

LOADER = yaml.CSafeLoader


def date_of(value):
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def body_tokens(body):
    kept = []
    in_history = False
    fenced = False
    for line in body.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            in_history = line.strip() == "## History"
        if not in_history:
            kept.append(line)
    return len(" ".join(kept).split()) * 13 // 10


def main():
    today = datetime.date.fromisoformat(os.environ.get("GIT_VAULT_TODAY", "2026-11-30"))
    if len(sys.argv) == 3 and sys.argv[1] == "--today":
        today = datetime.date.fromisoformat(sys.argv[2])
    folder = os.path.join(".memory", "10-Memories")
    memories = []
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("MEM-") and name.endswith(".md")):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = f.read()
        if not text.startswith("---\n"):
            continue
        end = text.find("\n---\n", 3)
        if end < 0:
            continue
        fields = yaml.load(text[4:end + 1], Loader=LOADER) or {}
        if fields.get("status") == "tombstoned":
            continue
        created = date_of(fields.get("created"))
        if created is None:
            continue
        keywords = {str(k).strip().lower() for k in (fields.get("keywords") or [])}
        keywords.discard("")
        memories.append({
            "id": name[:-3],
            "topic": str(fields.get("topic") or ""),
            "created": created,
            "last": date_of(fields.get("last_retrieved")),
            "count": int(fields.get("retrieval_count") or 0),
            "tokens": body_tokens(text[end + 5:]),
            "keywords": keywords,
        })

    postings = {}
    for i, m in enumerate(memories):
        for k in m["keywords"]:
            postings.setdefault(k, []).append(i)
    results = []
    counts = {"purge": 0, "merge": 0, "compress": 0}
    for i, m in enumerate(memories):
        shared = {}
        for k in m["keywords"]:
            for other in postings[k]:
                if other != i:
                    shared[other] = shared.get(other, 0) + 1
        duplicate = max(shared.values()) / len(m["keywords"]) if shared else 0.0
        since = max(0, (today - (m["last"] or m["created"])).days)
        age = max(0, (today - m["created"]).days)
        staleness = min(1.0, since / 90)
        if m["count"] > 0 and age > 60:
            staleness = max(0.0, staleness - 0.3)
        exempt = m["topic"].startswith("email/preferences/")
        zero = 1.0 if not exempt and m["count"] == 0 and age > 30 else 0.0
        size = max(0.0, (m["tokens"] - 600) / 600)
        composite = min(1.0, max(0.0, 0.3 * staleness + 0.25 * zero + 0.2 * size
                                 + 0.25 * duplicate))
        label = ("purge" if composite >= 0.7 else "merge_or_compress" if composite >= 0.5
                 else "review" if composite >= 0.3 else "healthy")
        counts["purge"] += composite >= 0.7
        counts["merge"] += duplicate > 0.6
        counts["compress"] += size > 0.5
        results.append({"id": m["id"], "staleness": staleness, "zero_retrieval": zero,
                        "size_penalty": size, "duplicate": duplicate, "composite": composite,
                        "classification": label})
    health = max(0, 100 - 3 * counts["purge"] - 5 * counts["merge"] - 2 * counts["compress"])
    json.dump({"schema": 1, "health_score": health, "memories": results}, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
