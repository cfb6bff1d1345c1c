#!/usr/bin/env python3
"""Writes the Cuda path's kernel tables from tuning runs.

Reads the JSON of `tune` (tools/tuning/tune.cu: every candidate kernel
checked, then timed for potrf and posv at batch 10^4 and at >= 256 MB) and
writes src/detail/cuda/Batchol_CudaTable_sm90.inc, the sm_90 tables the Cuda
path's tuning header (src/detail/cuda/Batchol_CudaTuning.cuh) includes.

For each precision, layout and measured order n, the chosen kernel is the one
with the lowest time relative to the fastest, averaged over the batch sizes,
counting potrf plus posv (posv factors with the same kernel instantiation, so
that its factor is bit for bit potrf's; each takes its own number of matrices
per block), posv in the faster of the ways that instantiation can solve
(inside the tile kernel, or split into potrf and potrs as the solve tables
name it); the row records that way too. A measured n covers the orders above the previous
measured one, so the sweep must measure every order where a candidate's
padded order changes (the kernels pad to their compile-time order).

The solve tables (potrs with one right-hand side, with several, and trsv)
come from the records of `tune --solve` sweeps, which carry "nrhs": per
precision, layout, order and nrhs (1, or the sweep's several), the group
kernel, strided warp solve, staged solve or lane solve with the lowest potrs
time relative to the fastest, averaged over the batch sizes; where another
kernel is more than 5 % faster at the batch of 10^4 or at the one of
>= 256 MB, that regime's table takes it (the ...Big tables serve batches
nearer the second in log scale). The trsv table
takes the same choice from trsv's own times (`tune --trsv` or
`--trsv-only`, records with op "trsv") at the orders they cover, and the
one-right-hand-side potrs choice at the others.

Usage: make_table.py TUNE.json [SOLVE.json ...] [-o OUT.inc]

The sm_90 table in the repository comes from the sweeps committed in
tools/tuning/inputs/, given in the order of their names:
    python3 tools/tuning/make_table.py tools/tuning/inputs/*.json.gz
(docs/tuning.md).
"""
import argparse
import collections
import gzip
import json
import re
import sys

CAND = re.compile(
    r"(group|tile)<NP=(\d+),(?:G|B)=(\d+),(?:W|MINB)=(\d+)(?:,MPB=(\d+))?(?:,POSV=(split|reg))?>")
STRIDED = re.compile(r"strided<MW=(\d+),U=(\d+),NR=(\d+)>")
STAGED = re.compile(r"staged(bulk)?<MW=(\d+),MPB=(\d+)>")
LANE = re.compile(r"lane<R=(\d+),NR=(\d+),G=(\d+),MINB=(\d+)>")
PANEL = re.compile(r"panel<NP=(\d+),NB=(\d+),BX=(\d+),BY=(\d+),MINB=(\d+),MPB=(\d+)>")
POSV = {"shared": "PosvSolve::Shared", "split": "PosvSolve::Split",
        "reg": "PosvSolve::Registers"}


def old_posv_splits(n, layout):
    # Sweeps from before the posv variants were timed: the fixed rule the
    # table had then (posv split above 64, and on LayoutRight above 48).
    return n > 64 or (n > 48 and layout == "right")


def parse(name):
    """Candidate name -> (kind, np, lanes, warps, minb, nb, by, mpb, posv),
    None if not a kernel; everything before mpb names the instantiation, posv
    says how that candidate's posv solves ("shared": inside the tile kernel
    from a shared copy of the factor;
    "split": potrf, then potrs, always so for the panel kernel;
    "reg": inside the tile kernel from its register tiles; a
    candidate named with POSV= was timed for posv only)."""
    m = PANEL.fullmatch(name)
    if m:
        np_, nb, bx, by, minb, mpb = map(int, m.groups())
        return ("Panel", np_, bx, 0, minb, nb, by, mpb, "split")
    m = CAND.fullmatch(name)
    if not m:
        return None
    kind, np_, lanes, third, mpb, posv = m.groups()
    if kind == "group":
        return ("Group", int(np_), int(lanes), int(third), 0, 0, 0, 0, "shared")
    return ("Tile", int(np_), int(lanes), 0, int(third), 0, 0, int(mpb), posv or "shared")


def rank(per_batch):
    """per_batch: one {key: time} per batch size -> [(score, key)], best first,
    for the keys timed at every batch size; score = time relative to that
    batch's fastest, averaged over the batch sizes."""
    score = collections.defaultdict(float)
    seen = collections.Counter()
    for ts in per_batch:
        lo = min(ts.values())
        for k, t in ts.items():
            score[k] += t / lo / len(per_batch)
            seen[k] += 1
    return sorted((sc, k) for k, sc in score.items() if seen[k] == len(per_batch))


def choose(times, n, layout):
    """times: {batch: {(kernel, op): ns}} -> (row, note).

    Candidates that differ only in matrices per block (mpb) are one kernel
    instantiation; mpb changes no arithmetic, so potrf and posv each take the
    mpb that suits them and posv still factors as potrf does. Each
    instantiation's posv is timed in every way it can solve (inside the
    tile kernel, or split into potrf and potrs), and its cost is
    potrf plus its fastest
    posv, each at its best mpb; the instantiation with the lowest cost
    relative to the best, averaged over the batch sizes, wins, with that
    posv. (Sweeps without the variants: the old fixed split rule.)"""
    variants = any(parse(k) and "POSV=" in k for per in times.values() for (k, o) in per)
    old_split = not variants and old_posv_splits(n, layout)
    costs = []
    for per in times.values():
        best_f, best_v = {}, collections.defaultdict(dict)
        for (k, op), t in per.items():
            e = parse(k)
            if e is None or op not in ("potrf", "posv"):
                continue
            inst = e[:7]
            if op == "potrf" and (k, "posv") in per:
                best_f[inst] = min(best_f.get(inst, t), t)
            elif op == "posv":
                best_v[inst][e[8]] = min(best_v[inst].get(e[8], t), t)
        costs.append({(i, v): best_f[i] + (0 if old_split else t)
                      for i in best_f for v, t in best_v[i].items()
                      if not old_split or v == ("split" if i[0] == "Panel" else "shared")})
    # One entry per instantiation: its cheapest way of solving.
    ranked, seen = [], set()
    for sc, (i, v) in rank(costs):
        if i not in seen:
            seen.add(i)
            ranked.append((sc, (i, v)))
    if not ranked:
        sys.exit(f"no candidate with potrf and posv at n = {n} ({layout})")
    inst, posv = ranked[0][1]
    if old_split:
        posv = "split"

    def best_mpb(op, v=None):
        return rank([{parse(k)[7]: t for (k, o), t in per.items()
                      if o == op and parse(k) and parse(k)[:7] == inst and
                      (v is None or parse(k)[8] == v)}
                     for per in times.values()])[0][1]

    mpb_f, mpb_v = ((best_mpb("potrf"), best_mpb("posv", None if old_split else posv))
                    if inst[0] != "Group" else (0, 0))
    if old_split or (not variants and inst[0] == "Panel"):
        mpb_v = mpb_f  # old sweeps: posv ran potrf's launch, then the strided solve

    def label(i):
        if i[0] == "Group":
            return f"group<NP={i[1]},G={i[2]},W={i[3]}>"
        if i[0] == "Tile":
            return f"tile<NP={i[1]},B={i[2]},MINB={i[4]}>"
        return f"panel<NP={i[1]},NB={i[5]},BX={i[2]},BY={i[6]},MINB={i[4]}>"

    note = f"{label(inst)}" + (f" mpb {mpb_f}/{mpb_v} posv {posv}" if inst[0] != "Group" else "")
    note += f" {ranked[0][0]:.3f}" + (
        f", then {label(ranked[1][1][0])} {ranked[1][0]:.3f}" if len(ranked) > 1 else "")
    return inst + (mpb_f, mpb_v, posv), note


def solve_row(name):
    """Solve candidate name -> the C++ row's fields after n_hi, None if not a kernel."""
    m = STRIDED.fullmatch(name)
    if m:
        mw, u, nr = map(int, m.groups())
        return ("Strided", 32 * mw, 32, 4, 0, 0, 0, POSV["shared"], 0, 0, u, nr)
    m = STAGED.fullmatch(name)
    if m:
        mw, mpb = map(int, m.groups()[1:])
        return ("StagedBulk" if m.group(1) else "Staged", 32 * mw, 32, 0, 0, mpb, 0)
    m = LANE.fullmatch(name)
    if m:
        r, nr, g, minb = map(int, m.groups())
        # Every order: np is only the largest, so consecutive rows merge.
        return ("Lane", 128, g, 1, minb, 0, 0, POSV["shared"], r, 0, 0, nr)
    m = CAND.fullmatch(name)
    if m and m.group(1) == "group":
        return ("Group", int(m.group(2)), int(m.group(3)), int(m.group(4)), 0, 0, 0)
    return None


REGIME_GAIN = 1.05


def choose_solve(times, regime):
    """times: {batch: {kernel: ns}} -> (row fields, note): the kernel with the
    lowest time relative to the fastest, averaged over the batch sizes, unless
    at the batch of the regime (the sweep's smallest, batch 10^4, for "small";
    its largest, >= 256 MB, for "big") another kernel takes less than
    1 / REGIME_GAIN of its time; then that one (a switch for a clear gain
    only, so near ties keep one kernel for both regimes)."""
    cands = [{k: t for k, t in per.items() if solve_row(k)} for per in times.values()]
    ranked = rank(cands)
    if not ranked:
        return None, None
    pick = ranked[0][1]
    everywhere = {k for _, k in ranked}  # timed at every batch
    at = {k: t for k, t in times[(min if regime == "small" else max)(times)].items()
          if k in everywhere}
    best = min(at, key=at.get)
    note = f"{pick} {ranked[0][0]:.3f}" + (
        f", then {ranked[1][1]} {ranked[1][0]:.3f}" if len(ranked) > 1 else "")
    if at[pick] > REGIME_GAIN * at[best]:
        note = f"{best} at this batch, {at[pick] / at[best]:.2f}x faster than {note}"
        pick = best
    return solve_row(pick), note


def emit_rows(out, name, rows):
    out.append(f"  static constexpr FactorEntry {name}[] = {{")
    for n_hi, e, notes in rows:
        for nt in notes:
            out.append(f"      // {nt}")
        out.append("      {" + ", ".join([str(n_hi), f"Kernel::{e[0]}"] + [str(v) for v in e[1:]]) + "},")
    out.append("  };")


def add_row(rows, n, e, note):
    if rows and rows[-1][1] == e:
        rows[-1] = (n, e, rows[-1][2] + [f"n={n}: {note}"])
    else:
        rows.append((n, e, [f"n={n}: {note}"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json", nargs="+")
    ap.add_argument("-o", "--out", default="src/detail/cuda/Batchol_CudaTable_sm90.inc")
    ap.add_argument("--max-n", type=int, default=128)
    a = ap.parse_args()

    times = collections.defaultdict(lambda: collections.defaultdict(dict))
    # (prec, layout, n, many) -> {batch: {kernel: ns}}, potrs of the solve sweep
    solves = collections.defaultdict(lambda: collections.defaultdict(dict))
    # (prec, layout, n) -> {batch: {kernel: ns}}, trsv of the solve sweep
    trsvs = collections.defaultdict(lambda: collections.defaultdict(dict))
    sources = []
    for path in a.json:
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            d = json.load(f)
        if d.get("check_failures"):
            print(f"note: {path} reports {d['check_failures']} check failures", file=sys.stderr)
        bad = {(r["check"], r["prec"], r["n"]) for r in d["records"] if "check" in r and not r["ok"]}
        sources.append(f"{path.split('/')[-1]} ({d['device']}, {d['date']})")
        for r in d["records"]:
            if "op" not in r or any(b[0] == r["kernel"] and b[1:] == (r["prec"], r["n"]) for b in bad):
                continue
            if "nrhs" in r:
                # On LayoutLeft the rows are not contiguous, so stagedbulk runs
                # as staged: the same kernel, and a pick between them would be noise.
                if r["layout"] == "left" and r["kernel"].startswith("stagedbulk"):
                    continue
                if r["op"] == "potrs":
                    key = (r["prec"], r["layout"], r["n"], r["nrhs"] > 1)
                    solves[key][r["batch"]][r["kernel"]] = r["ns_per_matrix"]
                elif r["op"] == "trsv":
                    trsvs[(r["prec"], r["layout"], r["n"])][r["batch"]][r["kernel"]] = \
                        r["ns_per_matrix"]
                continue
            times[(r["prec"], r["layout"], r["n"])][r["batch"]][(r["kernel"], r["op"])] = r["ns_per_matrix"]

    out = [
        "// Generated by tools/tuning/make_table.py (docs/tuning.md) from the tuning",
        "// sweeps below, given in this order: a later file's records replace an",
        "// earlier one's for the same candidate, order and batch. The committed",
        "// inputs are tools/tuning/inputs/; from the repository root:",
        "//   python3 tools/tuning/make_table.py tools/tuning/inputs/*.json.gz",
        *[f"//   {s}" for s in sources],
        "// Do not edit by hand: regenerate. One row per",
        "// range of orders: {n_hi, kernel, padded order, lanes (G or B), warps per",
        "// block (group), MINB (tile, panel), matrices per block for potrf and for",
        "// posv and how posv solves (tile, panel), and for the panel kernel its",
        "// panel width and blockDim.y (lanes = blockDim.x)}; a row serves the",
        "// orders above the previous row's n_hi. The comment gives the kernel's",
        "// time (potrf plus its faster posv) relative to the fastest (1 = fastest",
        "// at every batch size) and the runner-up.",
        "struct Sm90Table {",
    ]
    for prec in ("double", "float"):
        for layout in ("right", "left"):
            ns = sorted(n for (p, l, n) in times if p == prec and l == layout)
            if not ns or ns[-1] < a.max_n:
                sys.exit(f"{prec} {layout}: the sweep must reach n = {a.max_n}")
            rows = []
            for n in ns:
                if n > a.max_n:
                    break
                e, note = choose(times[(prec, layout, n)], n, layout)
                if e[1] < n:
                    sys.exit(f"{note} cannot hold n = {n}")
                kind, np_, lanes, warps, minb, nb, by, mpb, posv_mpb, posv = e
                tail = () if kind == "Group" else (POSV[posv],)
                if kind == "Panel":
                    tail += (nb, by)
                add_row(rows, n, (kind, np_, lanes, warps, minb, mpb, posv_mpb) + tail, note)
            emit_rows(out, f"{prec}_{layout}", rows)
    out.append("};")
    out += [
        "// The solve tables (potrs, trsv), from a `tune --solve` sweep: the group",
        "// kernel, the strided warp solve (padded order 32 x rows per lane, 32",
        "// lanes, 4 warps per block, then steps read ahead and right-hand sides",
        "// per warp) or the staged solve (padded order, 32 lanes, then systems",
        "// per block; StagedBulk: by bulk copies) or the lane solve (a thread per",
        "// group of lanes per system; the largest order, lanes per system, 1",
        "// warp, blocks per SM, then rows per block and right-hand sides per",
        "// lane) per range of orders, for one",
        "// right-hand side, for several (timed with 8) and for trsv (timed for",
        "// trsv where the comment says so, else potrs's choice); the averaged",
        "// ranking, except where another kernel was more than 5 % faster at the",
        "// batch of 10^4 (these tables) or at the one of >= 256 MB (...Big).",
    ]
    for struct, regime in ((s + big, r) for s in ("Sm90SolveOne", "Sm90SolveMany", "Sm90SolveTrsv")
                           for big, r in (("", "small"), ("Big", "big"))):
        many = struct.startswith("Sm90SolveMany")
        trsv = struct.startswith("Sm90SolveTrsv")
        out.append(f"struct {struct} {{")
        for prec in ("double", "float"):
            for layout in ("right", "left"):
                ns = sorted(n for (p, l, n, m) in solves if (p, l, m) == (prec, layout, many))
                if trsv:
                    ns = sorted(set(ns) | {n for (p, l, n) in trsvs if (p, l) == (prec, layout)})
                if not ns or ns[-1] < a.max_n:
                    sys.exit(f"solve {prec} {layout}: the --solve sweep must reach n = {a.max_n}")
                rows = []
                for n in ns:
                    if n > a.max_n:
                        break
                    if trsv and (prec, layout, n) in trsvs:
                        e, note = choose_solve(trsvs[(prec, layout, n)], regime)
                        note = note and "trsv: " + note
                    else:
                        e, note = choose_solve(solves[(prec, layout, n, many)], regime)
                    if e is None:
                        sys.exit(f"{struct} {prec} {layout} n = {n}: no candidate at every batch")
                    add_row(rows, n, e, note)
                emit_rows(out, f"{prec}_{layout}", rows)
        out.append("};")
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
