#!/usr/bin/env python3
"""Scores git-vault's retrieval on the labelled benchmark in this folder.

Copies `vault/` into a temporary git repository, asks each task of `tasks.json` of
`git vault context`, `context --original` and `search` (memories, working memory, both), ranks
the same tasks with a textbook BM25 written here (the baseline), and prints nDCG@5, recall@5
and MRR for each. See README.md in this folder for the set and its labels.

    bench/retrieval/score.py [--bin PATH] [--markdown FILE] [--json FILE] [--per-task]

Metrics (as trec_eval computes them): the gain of a result is its label's grade (3, 2, 1;
unlabelled 0), discounted by log2(rank + 1); nDCG@5 divides by the best possible ordering of
the labelled items the run can return; recall@5 is the share of labelled items in the first
five; MRR is 1 / the rank of the first labelled item within the first ten. Tasks with no label
are left out of these averages and counted apart: what a run returns for them is noise.
"""

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
K = 5

# The textbook baseline: Robertson's BM25 (k1 = 1.2, b = 0.75) over each active memory's whole
# text (frontmatter values and body), words split on anything but letters and digits,
# lower-cased, the 90 stop words of the original auto-retrieval dropped, nothing stemmed.
STOP = set("""the a an and or but in on at of to for is are was were be been being have has had do
does did will would could should may might can shall not no with by from as into through during
before after above below between out off over under again further then once here there when where
why how all both each few more most other some such only own same so than too very just about up
its it this that these those what which who whom""".split())


def words(text):
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP]


def frontmatter(text):
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 4)
    if end < 0:
        return {}, text
    head, body = text[4:end], text[end + 4:]
    fields = {}
    for line in head.splitlines():
        if ":" in line and not line.startswith((" ", "-")):
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip().strip('"')
    return fields, body


def baseline_rankings(vault, tasks):
    documents = {}
    for path in sorted((vault / ".memory" / "10-Memories").glob("MEM-*.md")):
        text = path.read_text(encoding="utf-8")
        fields, _ = frontmatter(text)
        if fields.get("status") == "tombstoned":
            continue
        documents[path.stem] = words(text.replace("---", " "))
    n = len(documents)
    average = sum(len(d) for d in documents.values()) / max(n, 1)
    holding = {}
    for terms in documents.values():
        for term in set(terms):
            holding[term] = holding.get(term, 0) + 1
    out = {}
    for task in tasks:
        query = set(words(task["task"]))
        scores = []
        for doc_id, terms in documents.items():
            score = 0.0
            for term in query:
                tf = terms.count(term)
                if tf:
                    idf = math.log(1 + (n - holding[term] + 0.5) / (holding[term] + 0.5))
                    score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(terms) / average))
            if score > 0:
                scores.append((-score, doc_id))
        out[task["id"]] = [doc_id for _, doc_id in sorted(scores)[:10]]
    return out


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def make_repo(tmp):
    repo = Path(tmp) / "repo"
    shutil.copytree(HERE / "vault", repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm",
        "benchmark vault")
    return repo


def run_json(binary, repo, args):
    env = dict(os.environ, GIT_VAULT_TODAY="2026-12-01", GIT_VAULT_NOW="2026-12-01T12:00:00Z")
    result = subprocess.run([binary, *args, "--json"], cwd=repo, capture_output=True, text=True,
                            env=env)
    if result.returncode not in (0, 1):
        sys.exit(f"score: {' '.join(args)} failed ({result.returncode}): {result.stderr}")
    return json.loads(result.stdout) if result.stdout.strip() else {}


def result_ids(document, key):
    ids = []
    for item in document.get(key, []):
        item_id = item.get("id")
        if item_id and item.get("kind") == "entry":
            item_id = item_id if item_id.startswith("tr") else "tr" + item_id
        if item_id:
            ids.append(item_id)
    return ids


def ndcg(ranked, labels, k=K):
    gain = sum(labels.get(item, 0) / math.log2(i + 2) for i, item in enumerate(ranked[:k]))
    ideal = sorted(labels.values(), reverse=True)[:k]
    best = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return gain / best if best else 0.0


def recall(ranked, labels, k=K):
    return len(set(ranked[:k]) & set(labels)) / len(labels) if labels else 0.0


def reciprocal_rank(ranked, labels, k=10):
    for i, item in enumerate(ranked[:k]):
        if item in labels:
            return 1.0 / (i + 1)
    return 0.0


def is_entry(item_id):
    return item_id.startswith("tr")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=shutil.which("git-vault") or "git-vault")
    parser.add_argument("--markdown", help="also write the table as Markdown to this file")
    parser.add_argument("--json", help="also write every run's per-task figures here")
    parser.add_argument("--per-task", action="store_true", help="print each task's figures")
    parser.add_argument("--half", choices=("odd", "even"),
                        help="score only the tasks of odd or even number (T01, T03, … or T02, …)")
    options = parser.parse_args()
    options.bin = os.path.abspath(options.bin) if os.sep in options.bin else options.bin

    tasks = json.loads((HERE / "tasks.json").read_text(encoding="utf-8"))
    if options.half:
        parity = 1 if options.half == "odd" else 0
        tasks = [t for t in tasks if int(re.sub(r"\D", "", t["id"]) or 0) % 2 == parity]
    tombstoned = set()
    for path in (HERE / "vault" / ".memory" / "10-Memories").glob("MEM-*.md"):
        if frontmatter(path.read_text(encoding="utf-8"))[0].get("status") == "tombstoned":
            tombstoned.add(path.stem)

    with tempfile.TemporaryDirectory() as tmp:
        repo = make_repo(tmp)
        baseline = baseline_rankings(repo, tasks)
        runs = {name: {} for name in ("context", "context: working memory", "context --original",
                                      "search", "search memories", "search working",
                                      "plain BM25")}
        silent = {name: 0 for name in runs}
        for task in tasks:
            text = task["task"]
            context = run_json(options.bin, repo, ["context", text])
            runs["context"][task["id"]] = result_ids(context, "memories")
            runs["context: working memory"][task["id"]] = result_ids(context, "entries")
            original = run_json(options.bin, repo, ["context", "--original", text])
            runs["context --original"][task["id"]] = result_ids(original, "memories")
            for name, scope in (("search", "all"), ("search memories", "memories"),
                                ("search working", "working")):
                found = run_json(options.bin, repo, ["search", "--scope", scope, "--limit", "10",
                                                     text])
                runs[name][task["id"]] = result_ids(found, "results")
            runs["plain BM25"][task["id"]] = baseline[task["id"]]

    # Which labels each run is judged on: the block's memories and the memory-only runs on the
    # memory labels, its working-memory section and working-memory search on the entry labels,
    # default-scope search on all.
    def judged(name, labels):
        if name in ("context", "context --original", "search memories", "plain BM25"):
            return {k: v for k, v in labels.items() if not is_entry(k)}
        if name in ("search working", "context: working memory"):
            return {k: v for k, v in labels.items() if is_entry(k)}
        return labels

    rows = []
    per_task = {}
    for name, ranked_by_task in runs.items():
        scores = {"ndcg": [], "recall": [], "mrr": [], "entry_recall": []}
        empty = 0
        noise = 0
        tombstones = 0
        for task in tasks:
            ranked = ranked_by_task[task["id"]]
            tombstones += len(set(ranked) & tombstoned)
            labels = judged(name, task["relevant"])
            if not task["relevant"]:
                noise += 1 if ranked else 0
                continue
            entries = {k: v for k, v in task["relevant"].items() if is_entry(k)}
            if entries and name in ("search", "search working", "context: working memory"):
                scores["entry_recall"].append(recall(ranked, entries))
            if not labels:
                continue
            if not ranked:
                empty += 1
            scores["ndcg"].append(ndcg(ranked, labels))
            scores["recall"].append(recall(ranked, labels))
            scores["mrr"].append(reciprocal_rank(ranked, labels))
            per_task.setdefault(task["id"], {})[name] = round(scores["ndcg"][-1], 3)
        mean = {k: (sum(v) / len(v) if v else None) for k, v in scores.items()}
        unrelated = sum(1 for t in tasks if not t["relevant"])
        rows.append((name, len(scores["ndcg"]), mean, empty, noise, unrelated, tombstones))

    def fmt(value):
        return "-" if value is None else f"{value:.3f}"

    header = ("| run | tasks | nDCG@5 | recall@5 | MRR | entry recall@5 | nothing returned | "
              "unrelated tasks answered | tombstoned returned |")
    lines = [header, "|" + "---|" * 9]
    for name, count, mean, empty, noise, unrelated, tombstones in rows:
        lines.append(f"| `{name}` | {count} | {fmt(mean['ndcg'])} | {fmt(mean['recall'])} | "
                     f"{fmt(mean['mrr'])} | {fmt(mean['entry_recall'])} | {empty} | "
                     f"{noise} of {unrelated} | {tombstones} |")
    table = "\n".join(lines)
    print(table)
    if options.per_task:
        for task in tasks:
            print(task["id"], json.dumps(per_task.get(task["id"], {})), task["task"][:60])
    if options.markdown:
        Path(options.markdown).write_text(table + "\n", encoding="utf-8")
    if options.json:
        Path(options.json).write_text(json.dumps({"runs": runs, "per_task": per_task}, indent=2),
                                      encoding="utf-8")


if __name__ == "__main__":
    main()
