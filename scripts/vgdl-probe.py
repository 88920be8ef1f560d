#!/usr/bin/env python3
"""Process-level VGDL probe: mutate game descriptions, levels and packs, run each through the
studio binary's commands, and count how every process ended.

    python3 scripts/vgdl-probe.py --bin target/release/level-studio \
        --games ../shared/data/gvgai/gridphysics --count 2000 --seed 1 --work /tmp/probe

GVGAI's files are only read (copied to the scratch folder --work, never into the repository).
Each process runs under `timeout` and `prlimit --as` (a 4 GB address-space cap by default) and
is classified:

    success   exit 0
    refusal   exit 1 or 2 with an error message on stderr
    panic     a Rust panic (exit 101 or "panicked at")
    abort     killed by a signal we did not send (stack overflow, SIGABRT, SIGSEGV)
    memory    an allocation failed under the cap
    timeout   still running after --seconds
    limited   stopped by the studio itself at `--time-limit` (exit 124, said in words: ended at
              the limit, or asked to stop shortly before it and written what it made): given
              with --time-limit S, every command is run with that flag
    silent    a failure exit with nothing on stderr

The inputs of every failure are kept under WORK/crashes/. The summary prints one row per
target and the slowest and largest processes; `--json FILE` writes the same as JSON.
The round-five probe (../shared/reports/reliability/vgdl-probe.md) is what this re-runs.
"""

import argparse
import collections
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

EDGE_NUMBERS = ["0", "-1", "2147483647", "-2147483648", "4294967296", "1e308", "NaN", "inf",
                "1e-320", "0x10", "-0", "99999999999999999999"]
EDGE_PARAMS = ["repeat=2147483647", "square_size=0", "limit=2147483647", "prob=1 cooldown=1",
               "total=0", "timer=-1 repeating=True", "speed=1e308", "cooldown=0", "orientation=UP",
               "singleton=True", "shrinkfactor=0", "value=-2147483648"]
TARGETS = ["play-desc", "play-level", "list", "shortest", "import", "pack", "generate", "eval"]


def seed_games(folder):
    """(description, level 0) pairs of every game in `folder` that has a level 0."""
    games = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".txt") or re.search(r"_lvl\d+\.txt$", name):
            continue
        level = os.path.join(folder, name[:-4] + "_lvl0.txt")
        if os.path.isfile(level):
            games.append((os.path.join(folder, name), level))
    return games


def sprite_names(lines):
    names = []
    in_set = False
    for line in lines:
        word = line.strip()
        if word.startswith("SpriteSet"):
            in_set = True
            continue
        if in_set and re.match(r"^\s*(LevelMapping|InteractionSet|TerminationSet)", line):
            in_set = False
        if in_set and ">" in word:
            names.append(word.split(">")[0].strip())
    return [n for n in names if n]


def mutate_description(text, rng):
    lines = text.split("\n")
    kind = rng.choice(["delete", "tabdup", "swap", "rename", "number", "param", "repeat",
                       "indent", "bytes", "truncate", "splice", "nest"])
    if len(lines) < 3:
        kind = "bytes"
    i = rng.randrange(len(lines))
    if kind == "delete":
        del lines[i]
    elif kind == "tabdup":
        lines.insert(i, lines[i].replace("    ", "\t"))
    elif kind == "swap":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "rename":
        names = sprite_names(lines)
        if len(names) >= 2:
            a, b = rng.sample(names, 2)
            lines = [re.sub(r"\b%s\b" % re.escape(a), b, l, count=1) if rng.random() < 0.5 else l
                     for l in lines]
    elif kind == "number":
        lines = [re.sub(r"(?<=[=\s])-?\d+(\.\d+)?", lambda m: rng.choice(EDGE_NUMBERS), l)
                 if rng.random() < 0.3 else l for l in lines]
    elif kind == "param":
        if lines[i].strip():
            lines[i] = lines[i] + " " + rng.choice(EDGE_PARAMS)
    elif kind == "repeat":
        lines[i:i + 1] = [lines[i]] * rng.choice([2, 10, 1000])
    elif kind == "indent":
        lines[i] = rng.choice(["", "\t", " " * 200]) + lines[i].lstrip()
    elif kind == "bytes":
        at = rng.randrange(len(text) + 1)
        junk = rng.choice(["\x00" * 64, "\ufeff", "\r", "\udcff", "}" * 10, "x" * 100000])
        return text[:at] + junk.encode("utf-8", "surrogateescape").decode("utf-8", "replace") \
            + text[at:]
    elif kind == "truncate":
        return text[:rng.randrange(len(text) + 1)]
    elif kind == "splice":
        j = rng.randrange(len(lines))
        lines.insert(j, lines[i])
    elif kind == "nest":
        names = sprite_names(lines)
        if names:
            depth = rng.choice([10, 200, 2000])
            indent = "    "
            chain = [indent * (2 + k % 40) + "deep%d >" % k for k in range(depth)]
            chain.append(indent * 3 + rng.choice(names) + "2 > Immovable")
            lines[i:i] = chain
    return "\n".join(lines)


def mutate_level(text, rng):
    rows = text.rstrip("\n").split("\n")
    kind = rng.choice(["swap", "dup", "cut", "flood", "wide", "empty", "tall"])
    if kind == "swap" and rows:
        r = rng.randrange(len(rows))
        if rows[r]:
            c = rng.randrange(len(rows[r]))
            rows[r] = rows[r][:c] + rng.choice("A.w%*#\t1xAA") + rows[r][c + 1:]
    elif kind == "dup" and rows:
        r = rng.randrange(len(rows))
        rows[r:r + 1] = [rows[r]] * rng.choice([2, 100])
    elif kind == "cut" and rows:
        r = rng.randrange(len(rows))
        rows[r] = rows[r][:rng.randrange(len(rows[r]) + 1)]
    elif kind == "flood" and rows:
        letter = rng.choice(sorted(set("".join(rows))) or ["."])
        rows = [letter * len(r) for r in rows]
    elif kind == "wide":
        rows = rows + ["w" * rng.choice([1000, 100000])]
    elif kind == "empty":
        rows = []
    elif kind == "tall":
        rows = rows * rng.choice([50, 5000])
    return "\n".join(rows) + "\n"


def mutate_pack(text, rng):
    kind = rng.choice(["bytes", "cells", "kind", "tag", "text", "truncate"])
    if kind == "cells":
        return re.sub(r'cells: \[', 'cells: ["' + "w" * rng.choice([3, 1000]) + '", ', text, count=1)
    if kind == "kind":
        return text.replace("Vgdl", rng.choice(["Vgdl2", "Match3", ""]), 1)
    if kind == "tag":
        return re.sub(r'game: \w+', 'game: ' + rng.choice(["Chess", "Vgdl_x", "Match3"]), text, 1)
    if kind == "text":
        extra = rng.choice(["    wall >\\n      wall >\\n",
                            "    x > Immovable repeat=2147483647\\n", "\\u{zz}"])
        return re.sub(r'SpriteSet\\n', lambda m: 'SpriteSet\\n' + extra, text, count=1)
    if kind == "truncate":
        return text[:rng.randrange(len(text) + 1)]
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(["\x00", "(", ")", '"', "\\", "[[[["]) + text[at:]


class Runner:
    def __init__(self, args):
        self.bin = os.path.abspath(args.bin)
        self.seconds = args.seconds
        self.cap = args.cap
        self.time_limit = args.time_limit
        self.work = args.work
        self.rows = collections.defaultdict(collections.Counter)
        self.slowest = []
        self.largest = []
        self.kept = collections.Counter()

    def run(self, target, argv, folder, inputs):
        if self.time_limit:
            cut = argv.index("--") if "--" in argv else len(argv)
            argv = argv[:cut] + ["--time-limit", str(self.time_limit)] + argv[cut:]
        cmd = ["timeout", str(self.seconds), "prlimit", "--as=%d" % self.cap,
               "/usr/bin/time", "-f", "PROBE %e %M", self.bin] + argv
        started = time.time()
        p = subprocess.run(cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        wall = time.time() - started
        err = p.stderr.decode("utf-8", "replace")
        rss = 0
        m = re.search(r"PROBE ([\d.]+) (\d+)", err)
        if m:
            rss = int(m.group(2)) // 1024
        err_body = re.sub(r".*PROBE [\d.]+ \d+\n?", "", err)
        err_body = re.sub(r"Command (exited with non-zero status|terminated by signal) \d+\n?", "",
                          err_body)
        rc = p.returncode
        if rc == 124 and ("ran past its time limit" in err_body
                          or "stopped at its time limit" in err_body):
            verdict = "limited"
        elif rc == 124:
            verdict = "timeout"
        elif "memory allocation" in err_body or "out of memory" in err_body.lower():
            verdict = "memory"
        elif "panicked at" in err_body or rc == 101:
            verdict = "panic"
        elif rc == 0:
            verdict = "success"
        elif "overflowed its stack" in err_body or rc >= 128 or rc < 0 or "signal" in err:
            verdict = "abort"
        elif err_body.strip() == "" or re.fullmatch(r"(device: [^\n]*\n?)*", err_body):
            verdict = "silent"
        else:
            verdict = "refusal"
        self.rows[target][verdict] += 1
        self.rows[target]["processes"] += 1
        self.slowest.append((wall, target, " ".join(argv)[:160]))
        self.largest.append((rss, target, " ".join(argv)[:160]))
        self.slowest = sorted(self.slowest, reverse=True)[:5]
        self.largest = sorted(self.largest, reverse=True)[:5]
        if verdict not in ("success", "refusal") and self.kept[(target, verdict)] < 5:
            self.kept[(target, verdict)] += 1
            keep = os.path.join(self.work, "crashes", "%s-%s-%d" % (
                target, verdict, self.kept[(target, verdict)]))
            os.makedirs(keep, exist_ok=True)
            for f in inputs:
                if os.path.isfile(f):
                    shutil.copy(f, keep)
            with open(os.path.join(keep, "command.txt"), "w") as out:
                out.write(" ".join(argv) + "\nexit %d\n%s" % (rc, err_body[-4000:]))
        return verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="target/release/level-studio")
    ap.add_argument("--games", required=True, help="GVGAI's gridphysics folder (read only)")
    ap.add_argument("--count", type=int, default=1000, help="mutants, spread over the targets")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--time-limit", type=float, default=None,
                    help="pass --time-limit S to every command (below --seconds)")
    ap.add_argument("--cap", type=int, default=4_000_000_000, help="bytes of address space")
    ap.add_argument("--work", default="/tmp/vgdl-probe")
    ap.add_argument("--json", help="write the summary here too")
    args = ap.parse_args()
    if not os.path.isfile(args.bin):
        sys.exit("no binary at %s: build it with cargo build --release" % args.bin)
    games = seed_games(args.games)
    if not games:
        sys.exit("no GAME.txt with a GAME_lvl0.txt in %s" % args.games)
    rng = random.Random(args.seed)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    runner = Runner(args)
    started = time.time()
    for n in range(args.count):
        target = TARGETS[n % len(TARGETS)]
        desc_path, level_path = rng.choice(games)
        folder = os.path.join(args.work, "m")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        desc = open(desc_path, encoding="utf-8", errors="replace").read()
        level = open(level_path, encoding="utf-8", errors="replace").read()
        d, l = os.path.join(folder, "game.txt"), os.path.join(folder, "game_lvl0.txt")
        if target != "play-level" and target != "pack":
            desc = mutate_description(desc, rng)
        if target == "play-level":
            level = mutate_level(level, rng)
        with open(d, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(desc)
        with open(l, "w") as f:
            f.write(level)
        if target in ("play-desc", "play-level"):
            how = rng.choice([["--agent", "random"], ["--agent", "donothing"],
                              ["--agent", "onestep"], ["--actions", "RIGHT*40,USE*40,LEFT*40"]])
            runner.run(target, ["play", "--vgdl", d, l] + how + ["--seed", str(n)], folder, [d, l])
        elif target == "shortest":
            budget = rng.choice(["10", "1000", "20000"])
            runner.run(target, ["play", "--vgdl", d, l, "--shortest", "--budget", budget],
                       folder, [d, l])
        elif target == "list":
            other_desc, other_level = rng.choice(games)
            shutil.copy(other_desc, os.path.join(folder, "other.txt"))
            shutil.copy(other_level, os.path.join(folder, "other_lvl0.txt"))
            runner.run(target, ["list", "--vgdl", folder], folder, [d, l])
        elif target == "import":
            p = os.path.join(folder, "p.ron")
            if runner.run(target, ["import", "--format", "gvgai-vgdl", d, "--out", p],
                          folder, [d, l]) == "success":
                runner.run(target, ["validate", p, "--games", "1"], folder, [d, l, p])
        elif target == "pack":
            p = os.path.join(folder, "p.ron")
            subprocess.run([runner.bin, "import", "--format", "gvgai-vgdl", d, "--out", p],
                           cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if not os.path.isfile(p):
                continue
            text = open(p, encoding="utf-8").read()
            with open(p, "w", encoding="utf-8") as f:
                f.write(mutate_pack(text, rng))
            how = rng.choice([["validate", p, "--games", "1"],
                              ["export", p, "--format", "json", "--out", p + ".json"],
                              ["export", p, "--format", "png", "--out", p + ".png"],
                              ["graph", p]])
            runner.run(target, how, folder, [d, l, p])
        elif target == "generate":
            runner.run(target, ["generate", "--vgdl", d, "--count", "1", "--population", "4",
                                "--generations", "0", "--seed", str(n),
                                "--out", os.path.join(folder, "g.ron")], folder, [d, l])
        elif target == "eval":
            a = os.path.join(folder, "a.ron")
            b = os.path.join(folder, "b.ron")
            for pack in (a, b):
                subprocess.run([runner.bin, "import", "--format", "gvgai-vgdl", d, "--out", pack],
                               cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if not os.path.isfile(a):
                runner.run(target, ["eval", "--vgdl", d, "--levels", "1", "--population", "4",
                                    "--generations", "0", "--games", "1", "--budget", "2"],
                           folder, [d, l])
                continue
            runner.run(target, ["eval", "--vgdl", d, "--profile", a, b, "--games", "1",
                                "--budget", "2", "--resamples", "100"], folder, [d, l, a, b])
        if (n + 1) % 100 == 0:
            print("%d of %d mutants, %.0f s" % (n + 1, args.count, time.time() - started),
                  file=sys.stderr)
    cols = ["processes", "success", "refusal", "panic", "abort", "memory", "timeout", "limited",
            "silent"]
    print("| target | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    total = collections.Counter()
    for t in TARGETS:
        total.update(runner.rows[t])
        print("| %s | " % t + " | ".join(str(runner.rows[t][c]) for c in cols) + " |")
    print("| **all** | " + " | ".join("**%d**" % total[c] for c in cols) + " |")
    print("\nwall %.0f s; slowest:" % (time.time() - started))
    for w, t, a in runner.slowest:
        print("  %.1f s  %s  %s" % (w, t, a))
    print("largest (MB):")
    for r, t, a in runner.largest:
        print("  %d MB  %s  %s" % (r, t, a))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": {t: dict(runner.rows[t]) for t in TARGETS}, "all": dict(total),
                       "slowest": runner.slowest, "largest": runner.largest}, f, indent=1)


if __name__ == "__main__":
    main()
