#!/usr/bin/env python3
"""A plain-Python reference of the offline scorer (protocol section 11), closed-world track.

    python3 testing/reference/irc_bench_score.py --release DIR --split dev|test \
        --predictions FILE [--baseline FILE ...] [--seed 42] [--resamples 1000] \
        [--prng stdlib|xoshiro] [--json]

What a participant might write with the standard library only (no numpy): read
kb.jsonl and the split's gold, validate the prediction files line by line
(section 4), compute every closed-world metric overall, per type and per
collection (sections 7-8), percentile-bootstrap intervals (section 9) and the
McNemar / exact / Holm comparisons with each baseline, and print the section 11
JSON report. `npm run bench:score` times it against the Node scorer and checks
that both give the same metrics and comparisons.

The bootstrap's random draws: `--prng stdlib` (the default) draws with
`random.Random(seed).choices`, the ordinary Python way, so its intervals are
those of another stream than the Node scorer's (close, not equal);
`--prng xoshiro` draws from the stream docs/scoring.md documents (xoshiro128**
seeded by SplitMix64), which reproduces the Node scorer's intervals bit for
bit, at some ten times the cost in pure Python. Open-world files are refused
(exit 2): NFKC and the token rules of section 6 are left to the Node scorer.
Exit status as the Node scorer's: 0 scored, 1 invalid predictions, 2 usage or
release errors.
"""

import argparse
import json
import math
import os
import random
import sys
import unicodedata
from collections import Counter

ENTITY_TYPES = ["Place", "Organization", "Person", "Event", "Work", "Military Unit", "Other"]
CLOSED_METRICS = ["hit@1", "hit@3", "hit@5", "hit@10", "mrr", "alias_hit@1"]
MAX_RANKING = 100
MAX_PROBLEMS = 50
SCORER_VERSION = "1.1.0"
# JavaScript's \s and String.prototype.trim() (section 5): not Python's str.split() set.
JS_WHITE_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


class Failure(Exception):
    def __init__(self, status, lines):
        super().__init__(lines[0] if lines else "")
        self.status = status
        self.lines = lines


def norm(text):
    """Section 5: NFKC, lower case, trim, every white-space run to one space."""
    lowered = unicodedata.normalize("NFKC", text).lower()
    words = []
    word = []
    for char in lowered:
        if char in JS_WHITE_SPACE:
            if word:
                words.append("".join(word))
                word = []
        else:
            word.append(char)
    if word:
        words.append("".join(word))
    return " ".join(words)


def read_jsonl(path):
    """(line number, object) for each non-blank line; a bad line ends the run with its number."""
    try:
        with open(path, "r", encoding="utf-8-sig") as handle:
            for number, line in enumerate(handle, start=1):
                if line.strip():
                    try:
                        yield number, json.loads(line)
                    except json.JSONDecodeError as error:
                        raise Failure(2, [f"{path}:{number}: invalid JSON: {error}"])
    except OSError as error:
        raise Failure(2, [f"{path}: cannot be read: {error.strerror}"])
    except UnicodeDecodeError:
        raise Failure(2, [f"{path}: not valid UTF-8"])


def is_string_list(value):
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def read_release(directory, split):
    """The KB by QID and the split's gold samples, in file order; every line checked (section 2)."""
    kb_path = os.path.join(directory, "kb.jsonl")
    kb = {}
    problems = []
    for number, entity in read_jsonl(kb_path):
        where = f"{kb_path}:{number}"
        if not isinstance(entity, dict):
            problems.append(f"{where}: not a JSON object")
            continue
        qid, name, kind, aliases = entity.get("qid"), entity.get("name"), entity.get("type"), entity.get("aliases", [])
        if not isinstance(qid, str) or not qid.startswith("Q") or not qid[1:].isdigit():
            problems.append(f"{where}: \"qid\" must be a QID string")
        elif qid in kb:
            problems.append(f"{where}: duplicate qid {qid}")
        if not isinstance(name, str) or not name:
            problems.append(f"{where}: \"name\" must be a non-empty string")
        if kind not in ENTITY_TYPES:
            problems.append(f"{where}: unknown type {kind!r}")
        if not is_string_list(aliases):
            problems.append(f"{where}: \"aliases\" must be a list of strings")
        if isinstance(qid, str):
            kb[qid] = {"name": name, "type": kind, "aliases": aliases if is_string_list(aliases) else []}
    split_path = os.path.join(directory, f"{split}.jsonl")
    gold = []
    seen = set()
    for number, sample in read_jsonl(split_path):
        where = f"{split_path}:{number}"
        if not isinstance(sample, dict):
            problems.append(f"{where}: not a JSON object")
            continue
        sample_id, qid, collection = sample.get("id"), sample.get("qid"), sample.get("collection")
        if not isinstance(sample_id, str) or not sample_id:
            problems.append(f"{where}: \"id\" must be a non-empty string")
        elif sample_id in seen:
            problems.append(f"{where}: duplicate id {sample_id}")
        if qid is None:
            raise Failure(2, [f"{split_path} has no gold: its samples carry no \"qid\""])
        if qid not in kb:
            problems.append(f"{where}: qid {qid} is not in the KB")
        if not isinstance(collection, str) or not collection:
            problems.append(f"{where}: \"collection\" must be a non-empty string")
        if isinstance(sample_id, str):
            seen.add(sample_id)
        if qid in kb and isinstance(sample_id, str):
            entity = kb[qid]
            gold.append({"id": sample_id, "qid": qid, "collection": collection, "type": entity["type"], "name": entity["name"], "aliases": entity["aliases"]})
    if not gold and not problems:
        problems.append(f"{split_path}: no samples")
    if problems:
        shown = problems[:MAX_PROBLEMS]
        more = [f"... and {len(problems) - len(shown)} more problems"] if len(problems) > len(shown) else []
        raise Failure(2, [f"The release in {directory} cannot be used:", *shown, *more])
    return kb, gold


def read_rankings(path, index_of_id, kb):
    """Section 4: every sample exactly once, rankings of 1 to 100 distinct KB QIDs. The ranking of each sample, in gold order."""
    rankings = [None] * len(index_of_id)
    first_line = {}
    problems = []
    for number, line in read_jsonl_lenient(path, problems):
        where = f"{path}:{number}"
        if not isinstance(line, dict):
            problems.append(f"{where}: not a JSON object")
            continue
        sample_id = line.get("id")
        if not isinstance(sample_id, str):
            problems.append(f"{where}: missing \"id\"" if sample_id is None else f"{where}: \"id\" must be a string")
            continue
        if sample_id not in index_of_id:
            problems.append(f"{where}: unknown id \"{sample_id}\"")
            continue
        if sample_id in first_line:
            problems.append(f"{where}: duplicate id \"{sample_id}\" (first seen on line {first_line[sample_id]})")
            continue
        first_line[sample_id] = number
        if "prediction" in line:
            problems.append(f"{where}: an open-world line (\"prediction\"); this reference scores the closed-world track only")
            continue
        ranking = line.get("ranking")
        if not is_string_list(ranking):
            problems.append(f"{where}: \"ranking\" must be an array of QID strings")
            continue
        if not 1 <= len(ranking) <= MAX_RANKING:
            problems.append(f"{where}: \"ranking\" must hold 1 to {MAX_RANKING} QIDs, got {len(ranking)}")
            continue
        unknown = [qid for qid in ranking if qid not in kb]
        if unknown:
            problems.append(f"{where}: \"ranking\" entry \"{unknown[0]}\" is not in the KB")
            continue
        if len(set(ranking)) != len(ranking):
            problems.append(f"{where}: \"ranking\" repeats a QID")
            continue
        rankings[index_of_id[sample_id]] = ranking
    missing = [sample_id for sample_id, index in index_of_id.items() if sample_id not in first_line]
    if not first_line and not problems:
        problems.append(f"{path}: the file has no predictions")
    if missing:
        problems.append(f"{path}: {len(missing)} samples missing: " + ", ".join(f"\"{sample_id}\"" for sample_id in missing[:5]))
    if problems:
        shown = problems[:MAX_PROBLEMS]
        more = [f"... and {len(problems) - len(shown)} more problems"] if len(problems) > len(shown) else []
        raise Failure(1, shown + more)
    return rankings


def read_jsonl_lenient(path, problems):
    """Like read_jsonl, but a bad line is a problem of its own and reading goes on (section 4)."""
    try:
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                if len(raw.rstrip(b"\r\n")) > 65536:
                    problems.append(f"{path}:{number}: line is longer than 64 KiB")
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    problems.append(f"{path}:{number}: not valid UTF-8")
                    continue
                if not text.strip():
                    continue
                try:
                    yield number, json.loads(text)
                except json.JSONDecodeError as error:
                    problems.append(f"{path}:{number}: invalid JSON: {error}")
    except OSError as error:
        raise Failure(2, [f"{path}: cannot be read: {error.strerror}"])


def outcomes_of(rankings, gold, kb, normalized_name):
    """Section 7, per sample: the gold rank (0 when absent) and whether the top entity is an alias_hit@1."""
    outcomes = []
    for ranking, sample in zip(rankings, gold):
        rank = ranking.index(sample["qid"]) + 1 if sample["qid"] in ranking else 0
        top = ranking[0]
        is_alias_hit = top == sample["qid"] or normalized_name(top) in sample["names"]
        outcomes.append((rank, is_alias_hit))
    return outcomes


def metric_values(outcome):
    """What one sample contributes to each closed-world metric (section 7), in report order."""
    rank, is_alias_hit = outcome
    hits = [1.0 if 0 < rank <= k else 0.0 for k in (1, 3, 5, 10)]
    return hits + [1.0 / rank if rank > 0 else 0.0, 1.0 if is_alias_hit else 0.0]


def metrics_of(outcomes):
    """Each metric's mean over a group, summed per distinct outcome (count x value, outcomes in code order)."""
    counts = Counter(outcomes)
    n = len(outcomes)
    sums = [0.0] * len(CLOSED_METRICS)
    for outcome in sorted(counts, key=outcome_code):
        values = metric_values(outcome)
        for m, value in enumerate(values):
            sums[m] += counts[outcome] * value
    return [total / n for total in sums]


def outcome_code(outcome):
    """The order the Node scorer sums outcomes in: rank, plus 128 for an alias_hit@1."""
    rank, is_alias_hit = outcome
    return rank + (128 if is_alias_hit else 0)


def percentile(sorted_values, q):
    """Linear interpolation between closest ranks (numpy's default, R type 7)."""
    h = (len(sorted_values) - 1) * q
    below = math.floor(h)
    upper = sorted_values[min(below + 1, len(sorted_values) - 1)]
    return sorted_values[below] + (h - below) * (upper - sorted_values[below])


class Xoshiro128StarStar:
    """The Node scorer's documented stream (docs/scoring.md): xoshiro128**, state from SplitMix64(seed)."""

    MASK32 = 0xFFFFFFFF
    MASK64 = 0xFFFFFFFFFFFFFFFF

    def __init__(self, seed):
        state = seed & self.MASK64
        words = []
        for _ in range(2):
            state = (state + 0x9E3779B97F4A7C15) & self.MASK64
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK64
            z ^= z >> 31
            words += [z & self.MASK32, z >> 32]
        self.state = words

    def indices(self, n):
        mask = self.MASK32
        s0, s1, s2, s3 = self.state
        drawn = []
        for _ in range(n):
            x = (s1 * 5) & mask
            output = ((((x << 7) | (x >> 25)) & mask) * 9) & mask
            t = (s1 << 9) & mask
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = ((s3 << 11) | (s3 >> 21)) & mask
            drawn.append(output * n >> 32)
        self.state = [s0, s1, s2, s3]
        return drawn


def bootstrap(outcomes, seed, resamples, prng):
    """Section 9: percentile intervals, resampling the group's samples with replacement; all metrics on the same resamples."""
    n = len(outcomes)
    columns = [[] for _ in CLOSED_METRICS]
    xoshiro = Xoshiro128StarStar(seed) if prng == "xoshiro" else None
    stdlib = random.Random(seed)
    first_seen = list(dict.fromkeys(outcomes))
    value_of = {outcome: metric_values(outcome) for outcome in first_seen}
    for _ in range(resamples):
        drawn = [outcomes[i] for i in xoshiro.indices(n)] if xoshiro else stdlib.choices(outcomes, k=n)
        counts = Counter(drawn)
        sums = [0.0] * len(CLOSED_METRICS)
        # The Node scorer's order of terms: outcomes as they first appear in the group (it changes the last bit of mrr).
        for outcome in first_seen:
            for m, value in enumerate(value_of[outcome]):
                sums[m] += counts[outcome] * value
        for m, total in enumerate(sums):
            columns[m].append(total / n)
    tail = (1 - 0.95) / 2  # 0.025000000000000022 in doubles, as the Node scorer computes it
    intervals = []
    for column in columns:
        column.sort()
        intervals.append([percentile(column, tail), percentile(column, 1 - tail)])
    return intervals


def mcnemar(b, c):
    """Section 9: continuity-corrected chi2, its chi-square(1) upper tail, and the exact two-sided binomial p."""
    m = b + c
    chi2 = max(0, abs(b - c) - 1) ** 2 / m if m else 0.0
    p = math.erfc(math.sqrt(chi2 / 2))
    # Exact in integers, one rounding at the end.
    p_exact = min(1.0, 2 * sum(math.comb(m, i) for i in range(min(b, c) + 1)) / 2**m) if m else 1.0
    return {"b": b, "c": c, "chi2": float(chi2), "p": p, "p_exact": p_exact}


def holm(p_values):
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def compare(entry, baselines):
    """Section 9 on hit@1; baselines with identical vectors count once in the Holm family."""
    right = [1 if rank == 1 else 0 for rank, _ in entry]
    rows, vectors = [], []
    for name, outcomes in baselines:
        vector = [1 if rank == 1 else 0 for rank, _ in outcomes]
        b = sum(1 for mine, theirs in zip(right, vector) if mine > theirs)
        c = sum(1 for mine, theirs in zip(right, vector) if mine < theirs)
        rows.append({"baseline": name, "metric": "hit@1", **mcnemar(b, c)})
        vectors.append(vector)
    first = [vectors.index(vector) for vector in vectors]
    distinct = [i for i in range(len(rows)) if first[i] == i]
    adjusted = dict(zip(distinct, holm([rows[i]["p"] for i in distinct])))
    for i, row in enumerate(rows):
        row["p_holm"] = adjusted[first[i]]
    return rows


def build_report(split, gold, entry, baselines, seed, resamples, prng):
    def scored(outcomes, with_intervals):
        values = metrics_of(outcomes)
        group = {"n": len(outcomes), "metrics": dict(zip(CLOSED_METRICS, values))}
        if with_intervals:
            group["ci95"] = dict(zip(CLOSED_METRICS, bootstrap(outcomes, seed, resamples, prng)))
        return group

    overall = scored(entry, True)
    by_type = {}
    for kind in ENTITY_TYPES:
        outcomes = [outcome for outcome, sample in zip(entry, gold) if sample["type"] == kind]
        if outcomes:
            by_type[kind] = scored(outcomes, True)
        else:
            by_type[kind] = {"n": 0, "metrics": dict.fromkeys(CLOSED_METRICS), "ci95": dict.fromkeys(CLOSED_METRICS)}
    collections = sorted({sample["collection"] for sample in gold}, key=lambda name: name.encode("utf-16-be"))
    by_collection = {}
    for name in collections:
        by_collection[name] = scored([outcome for outcome, sample in zip(entry, gold) if sample["collection"] == name], False)
    return {
        "scorer_version": SCORER_VERSION,
        "split": split,
        "track": "closed",
        "n": len(entry),
        "metrics": overall["metrics"],
        "ci95": overall["ci95"],
        "by_type": by_type,
        "by_collection": by_collection,
        "comparisons": compare(entry, baselines),
    }


def print_table(report):
    print(f"{report['split']} split, closed-world track, n = {report['n']}")
    for key in CLOSED_METRICS:
        low, high = report["ci95"][key]
        print(f"  {key:<12} {report['metrics'][key]:.4f}  [{low:.4f}, {high:.4f}]")
    for row in report["comparisons"]:
        print(f"  vs {row['baseline']}: b = {row['b']}, c = {row['c']}, p = {row['p']:.3g}, p_holm = {row['p_holm']:.3g}")


def main(argv):
    parser = argparse.ArgumentParser(description="Plain-Python reference of the IRC-Bench offline scorer (closed-world track).")
    parser.add_argument("--release", required=True)
    parser.add_argument("--split", required=True, choices=["dev", "test"])
    parser.add_argument("--predictions", required=True)
    parser.add_argument("--baseline", action="append", default=[])
    parser.add_argument("--track", choices=["closed"])
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--prng", choices=["stdlib", "xoshiro"], default="stdlib")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.seed < 0 or not 1 <= args.resamples <= 100000:
        parser.error("--seed must be >= 0 and --resamples 1..100000")
    kb, gold = read_release(args.release, args.split)
    for sample in gold:
        sample["names"] = {name for name in map(norm, [sample["name"], *sample["aliases"]]) if name}
    index_of_id = {sample["id"]: i for i, sample in enumerate(gold)}
    normalized = {}

    def normalized_name(qid):
        if qid not in normalized:
            normalized[qid] = norm(kb[qid]["name"])
        return normalized[qid]

    files = [args.predictions, *args.baseline]
    scored, problems = [], []
    for path in files:
        try:
            scored.append(outcomes_of(read_rankings(path, index_of_id, kb), gold, kb, normalized_name))
        except Failure as failure:
            if failure.status != 1:
                raise
            problems += failure.lines
    if problems:
        raise Failure(1, problems)
    report = build_report(args.split, gold, scored[0], list(zip(args.baseline, scored[1:])), args.seed, args.resamples, args.prng)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as failure:
        for line in failure.lines:
            print(line, file=sys.stderr)
        sys.exit(failure.status)
