#!/usr/bin/env python3
"""REFERENCE ONLY, not part of Medic: a plain Drain (He et al., ICWS 2017) in pure Python, the
yardstick `npm run bench -- templates` times Medic's `templates` command against.

Fixed-depth parse tree (depth 4: length, then the first two tokens, digit-bearing tokens as <*>),
at most 100 children per node, similarity threshold 0.4, templates generalised position by
position. No masking beyond that. Reads FILE (one message per line) and writes one
{"group", "template"} JSON line per input line with each group's final template, as Medic does.
"""
import json
import sys

DEPTH = 4
SIM_THRESHOLD = 0.4
MAX_CHILDREN = 100
WILDCARD = "<*>"


def has_digit(token):
    return any(c.isdigit() for c in token)


class Cluster:
    __slots__ = ("id", "template")

    def __init__(self, cid, tokens):
        self.id = cid
        self.template = tokens


def similarity(template, tokens):
    same = 0
    params = 0
    for a, b in zip(template, tokens):
        if a == WILDCARD:
            params += 1
        elif a == b:
            same += 1
    return same / len(template), params


def main(path):
    root = {}
    clusters = []
    assigned = []
    with open(path, encoding="utf-8", errors="replace", newline=None) as f:
        for line in f:
            tokens = line.rstrip("\n").split()
            node = root.setdefault(len(tokens), {})
            for token in tokens[: DEPTH - 2]:
                key = WILDCARD if has_digit(token) else token
                if key not in node:
                    key = key if len(node) < MAX_CHILDREN else WILDCARD
                node = node.setdefault(key, {})
            leaf = node.setdefault(None, [])
            best, best_sim, best_params = None, -1.0, -1
            for cluster in leaf:
                sim, params = similarity(cluster.template, tokens) if tokens else (1.0, 0)
                if sim > best_sim or (sim == best_sim and params > best_params):
                    best, best_sim, best_params = cluster, sim, params
            if best is None or best_sim < SIM_THRESHOLD:
                best = Cluster(len(clusters), tokens)
                clusters.append(best)
                leaf.append(best)
            else:
                best.template = [a if a == b else WILDCARD for a, b in zip(best.template, tokens)]
            assigned.append(best)
    printed = {}
    out = sys.stdout
    chunk = []
    for cluster in assigned:
        text = printed.get(cluster.id)
        if text is None:
            text = json.dumps({"group": str(cluster.id), "template": " ".join(cluster.template)}) + "\n"
            printed[cluster.id] = text
        chunk.append(text)
        if len(chunk) >= 10000:
            out.write("".join(chunk))
            chunk = []
    out.write("".join(chunk))


if __name__ == "__main__":
    main(sys.argv[1])
