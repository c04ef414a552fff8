#!/usr/bin/env python3
"""Where a run of .ci/run spent its time: each step's seconds (from the `== step (at N s)`
titles) and its compilations (cargo's `Compiling` lines), and how many crates more than
one step compiled again (another target directory, other flags or features).

    CI=true bash .ci/run 2>&1 | tee ci.log
    python3 .ci/step-times.py ci.log
"""
import re
import sys
from collections import Counter


def main(path):
    steps = []
    for line in open(path, encoding="utf-8", errors="replace"):
        title = re.match(r"^== (.*) \(at (\d+) s\)$", line.rstrip("\n"))
        if title:
            steps.append({"name": title.group(1), "at": int(title.group(2)), "crates": []})
            continue
        compiling = re.match(r"^\s+Compiling (\S+) v(\S+)", line)
        if compiling and steps:
            steps[-1]["crates"].append(f"{compiling.group(1)} {compiling.group(2)}")
    if not steps:
        sys.exit(f"{path}: no step titles")
    seen = Counter(crate for step in steps for crate in set(step["crates"]))
    print("| step | seconds | compilations | of crates another step compiled too |")
    print("| --- | ---: | ---: | ---: |")
    for i, step in enumerate(steps):
        end = steps[i + 1]["at"] if i + 1 < len(steps) else None
        seconds = "" if end is None else str(end - step["at"])
        again = sum(1 for crate in set(step["crates"]) if seen[crate] > 1)
        print(f"| {step['name']} | {seconds} | {len(step['crates'])} | {again} |")
    print(f"\n{sum(1 for n in seen.values() if n > 1)} of {len(seen)} crates were compiled "
          "in more than one step.")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "ci.log")
