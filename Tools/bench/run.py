#!/usr/bin/env python3
"""`make bench`: typeset side by side with Pango (PyGObject) and Typst (PyPI's typst) on one
corpus of localized mockups (corpus.py), in one run.

    python3 Tools/bench/run.py --typeset .build/release/typeset [--count 1000] [--repeats 3]

Prints, for PDF, SVG and PNG (2×), each tool's median wall time and peak memory and the ratios
typeset/Pango and typeset/Typst (the issue's targets are PDF's and PNG's; SVG is reported); typeset's --jobs 2 speedup on the batch; its peak memory for
10× the pages; and where typeset's instructions go, by library (valgrind --tool=callgrind on a
small run). Wall times are of whole processes (start-up, reading, layout, rendering, writing);
each tool renders the same mockups with the same bundled Noto fonts.
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, with PyGObject (pyenv's python3 comes first on PATH)


def run(command, env=None, quiet=True, allowed=(0,)):
    """Runs `command`, which must exit with one of `allowed`; returns (wall seconds, peak
    resident memory in MiB, CPU seconds)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL if quiet else None,
                               stderr=subprocess.PIPE)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in allowed:
        sys.exit(f"error: {' '.join(command[:4])} ... exited with {process.returncode}:\n{stderr.decode()[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def fresh(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)
    return path


def moved_aside(path, aside):
    """Renames `path` (the previous run's folder or file) into the folder `aside`, to be removed
    after the timed runs. Deleting a thousand files just before a run makes ext4 look past their
    recently freed inodes for every new file (`recently_deleted` in the kernel), and with two
    jobs the threads contend for that inode group: in a perf profile of `--jobs 2` a quarter of
    the samples were there, and its system time doubled. A fresh checkout's output folder has
    no such neighbours."""
    if os.path.exists(path):
        os.makedirs(aside, exist_ok=True)
        os.rename(path, os.path.join(aside, f"{os.path.basename(path)}-{len(os.listdir(aside))}"))


def typst_command(source, output, output_format):
    script = ("import sys, typst\n"
              "source, output, fmt, fonts = sys.argv[1:5]\n"
              "typst.compile(source, output=output, font_paths=[fonts], ignore_system_fonts=True, format=fmt,"
              " ppi=144 if fmt == 'png' else None)\n")
    return [sys.executable, "-c", script, source, output, output_format, os.path.join(ROOT, "Fonts")]


def median_of(label, command, repeats, prepare=None, env=None, allowed=(0,)):
    times, memory, cpu = [], [], []
    for _ in range(repeats):
        if prepare:
            prepare()
        # The previous run's files reach the disk now, not while this run is timed (the
        # kernel's writeback of 173 MB of PNGs takes a core for a while).
        os.sync()
        seconds, mib, cpu_seconds = run(command, env=env, allowed=allowed)
        times.append(seconds)
        memory.append(mib)
        cpu.append(cpu_seconds)
    print(f"  {label:<14} {statistics.median(times):8.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times)};"
          f" CPU {statistics.median(cpu):.2f} s)  peak {max(memory):6.0f} MiB", flush=True)
    return statistics.median(times), max(memory)


def alternating_speedup(label, commands, pairs, prepare):
    """How many times faster `commands[2]` is than `commands[1]`: the median over `pairs` runs of
    each, taken in turn (1, 2, 1, 2, ...), of each pair's ratio. This machine's CPU speed drifts
    for seconds at a time (one --jobs 1 PNG run's user time moved between 1.58 and 2.07 s within
    minutes, its system time staying at 0.13-0.21 s), so all the runs of one command and then all
    of the other's can put a slow spell on one side only; a pair's two runs share it."""
    results = {1: [], 2: []}
    for _ in range(pairs):
        for jobs in (1, 2):
            prepare()
            os.sync()  # as in `median_of`
            results[jobs].append(run(commands[jobs]))
    for jobs in (1, 2):
        times = [seconds for seconds, _, _ in results[jobs]]
        print(f"  {label} --jobs {jobs} {statistics.median(times):6.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times)};"
              f" CPU {statistics.median(cpu for _, _, cpu in results[jobs]):.2f} s)"
              f"  peak {max(mib for _, mib, _ in results[jobs]):6.0f} MiB", flush=True)
    ratios = [one[0] / two[0] for one, two in zip(results[1], results[2])]
    print(f"  {label} each pair's ratio: {', '.join(f'{r:.2f}' for r in ratios)}", flush=True)
    return statistics.median(ratios)


def essential_chunks(png):
    """`png` without its ancillary chunks other than tRNS (pHYs, bKGD, ...): the same pixels in
    other bytes, as a reference written by an earlier version of typeset has them."""
    out, offset = png[:8], 8
    while offset < len(png):
        length = int.from_bytes(png[offset:offset + 4], "big")
        kind = png[offset + 4:offset + 8]
        if kind[0] < 0x61 or kind == b"tRNS":  # critical chunks have an upper-case first letter
            out += png[offset:offset + 12 + length]
        offset += 12 + length
    return out


def reencoded(png):
    """`png` (8-bit RGB or RGBA, one image data) with its image data deflated again by zlib at
    level 9 in one IDAT chunk: the same pixels in other image data, as another encoder (or a
    version of typeset with another) writes them, which `snapshot` must decode to compare."""
    chunks, offset = [], 8
    while offset < len(png):
        length = int.from_bytes(png[offset:offset + 4], "big")
        chunks.append((png[offset + 4:offset + 8], png[offset + 8:offset + 8 + length]))
        offset += 12 + length
    data = zlib.compress(zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT")), 9)

    def chunk(kind, body):
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")
    out = png[:8]
    for kind, body in chunks:
        if kind != b"IDAT":
            out += chunk(kind, body)
        elif data:
            out += chunk(kind, data)
            data = b""
    return out


def snapshot_times(typeset, inputs, work, repeats):
    """`typeset snapshot` of the corpus (PNG at 2×, --jobs from the machine) against references
    it has just recorded (the same bytes), against the same pixels in other bytes (other chunks
    around the same image data, known without decoding; then image data of another encoding,
    decoded), and with every screen changed, beside the time of rendering the pages."""
    folder = fresh(os.path.join(work, "snapshot"))
    os.makedirs(folder)
    for path in inputs:
        shutil.copy(path, folder)
    print(f"\nSnapshot check of {len(inputs)} screens (typeset snapshot, PNG at 2×):", flush=True)
    run([typeset, "snapshot", folder, "--update"])
    median_of("same bytes", [typeset, "snapshot", folder], repeats)
    references = os.path.join(folder, "__snapshots__")

    def rewrite_references(change):
        for name in os.listdir(references):
            with open(os.path.join(references, name), "r+b") as f:
                changed = change(f.read())
                f.seek(0)
                f.truncate()
                f.write(changed)
    rewrite_references(essential_chunks)
    median_of("other chunks", [typeset, "snapshot", folder], repeats)
    rewrite_references(reencoded)
    median_of("other encoding", [typeset, "snapshot", folder], repeats)
    # Every screen changed (a smaller body size): each gets a diff image; the check fails.
    for name in os.listdir(folder):
        if name.endswith(".xml"):
            path = os.path.join(folder, name)
            with open(path) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(text.replace('font-size="17"', 'font-size="16"'))
    median_of("all differ", [typeset, "snapshot", folder], repeats, allowed=(1,))
    target = os.path.join(work, "snapshot-render")
    aside = os.path.join(work, "snapshot-aside")
    median_of("render", [typeset, "render", *inputs, "--out-dir", target, "--format", "png"], repeats,
              lambda: moved_aside(target, aside))
    for path in (folder, target, aside):
        fresh(path)


def instruction_shares(typeset, inputs, arguments, work):
    """typeset's instructions by library from callgrind: the total, and each group's."""
    return callgrind_groups([typeset, "render", *inputs, *arguments, "--jobs", "1"], typeset, work)


def callgrind_groups(command, typeset, work, env=None):
    """The instructions of `command` under callgrind: the total, and each group's (`category`)."""
    out = os.path.join(work, "callgrind.out")
    fresh(out)
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    costs, total = exclusive_costs(out)
    if sum(costs.values()) != total:
        sys.exit(f"bench: {out}: the functions' instructions add up to {sum(costs.values())}, not {total}")
    groups = {}
    for (object_name, file, function), count in costs.items():
        name = category(os.path.basename(object_name or "?"), file, function, typeset)
        groups[name] = groups.get(name, 0) + count
    return total, groups


def exclusive_costs(path):
    """Each function's own instructions, keyed by (object, source file, function), read from
    callgrind's output file itself. (callgrind_annotate's listing leaves the object out of the
    lines of code inlined from another file: parsed for `[object]`, it missed 15% of a
    1,000-document run, nearly all of it ours.) Returns them and the file's total."""
    names = {}
    spaces = {"ob": "ob", "cob": "ob", "fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl", "cfl": "fl",
              "fn": "fn", "cfn": "fn"}

    def name(space, value):  # "(7) text" defines id 7, "(7)" refers to it
        match = re.match(r"\((\d+)\)(?: (.*))?$", value.strip())
        if not match:
            return value.strip()
        if match.group(2) is not None:
            names[(space, match.group(1))] = match.group(2)
        return names[(space, match.group(1))]

    costs = {}
    total = None
    current = {"ob": None, "fl": None, "fn": None}
    positions = 1
    after_call = False
    with open(path) as lines:
        for line in lines:
            if line[0].isdigit() or line[0] in "+-*":
                if after_call:  # the cost of a call: the callee's, already counted there
                    after_call = False
                    continue
                fields = line.split()
                if len(fields) > positions:
                    key = (current["ob"], current["fl"], current["fn"])
                    costs[key] = costs.get(key, 0) + int(fields[positions])
                continue
            key, equals, value = line.partition("=")
            if equals and key in spaces:
                text = name(spaces[key], value)
                if key in current:
                    current[key] = text
            elif key == "calls":
                after_call = True
            elif line.startswith("positions:"):
                positions = len(line.split()) - 1
            elif line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    return costs, total


CATEGORIES = [("libharfbuzz", "HarfBuzz"), ("libcairo", "Cairo"), ("libfreetype", "FreeType"),
              ("libpixman", "pixman"), ("libz.", "zlib/libpng"), ("libpng", "zlib/libpng"),
              ("libswift", "Swift runtime"), ("libFoundation", "Swift runtime"), ("libdispatch", "Swift runtime"),
              ("lib_FoundationICU", "Swift runtime"), ("libc.so", "libc (malloc, memcpy, ...)"),
              ("ld-linux", "other libraries"), ("vgpreload", "libc (malloc, memcpy, ...)")]


def category(object_name, file, function, typeset):
    if object_name == os.path.basename(typeset):
        # The release binary links the Swift runtime and FoundationEssentials in (Package.swift):
        # their functions have no source file; ours (and the compiler's code for them) have one,
        # except value witnesses of our types, which are named after them.
        ours = file != "???" or function.startswith(("$s7Typeset", "$s10TypesetCLI"))
        return "typeset (our code)" if ours else "Swift runtime"
    for prefix, name in CATEGORIES:
        if object_name.startswith(prefix):
            return name
    return "other libraries"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--typeset", default=os.path.join(ROOT, ".build/release/typeset"))
    parser.add_argument("--count", type=int, default=1000, help="mockups (pages) in the corpus")
    parser.add_argument("--repeats", type=int, default=3, help="runs per tool and format; the median counts")
    parser.add_argument("--work", default=os.path.join(ROOT, "out/bench"))
    parser.add_argument("--skip-references", action="store_true", help="time typeset only")
    parser.add_argument("--callgrind-count", type=int, default=20, help="documents in the callgrind run")
    args = parser.parse_args()
    typeset = os.path.abspath(args.typeset)
    work = args.work
    os.makedirs(work, exist_ok=True)

    # The corpus, and ten times as many pages for the memory check.
    corpus = os.path.join(work, "corpus")
    large = os.path.join(work, "corpus-large")
    subprocess.run([sys.executable, os.path.join(HERE, "corpus.py"), str(args.count), corpus], check=True)
    subprocess.run([sys.executable, os.path.join(HERE, "corpus.py"), str(args.count * 10), large], check=True)
    inputs = sorted(glob.glob(os.path.join(corpus, "*.xml")))
    large_inputs = sorted(glob.glob(os.path.join(large, "*.xml")))
    corpus_json = os.path.join(corpus, "corpus.json")
    corpus_typ = os.path.join(corpus, "corpus.typ")

    # Pango finds the bundled fonts, and only those, through its own fontconfig configuration.
    fontconfig = os.path.join(work, "fontconfig")
    os.makedirs(fontconfig, exist_ok=True)
    with open(os.path.join(fontconfig, "fonts.conf"), "w") as f:
        f.write('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                f'  <dir>{os.path.join(ROOT, "Fonts")}</dir>\n  <cachedir>{os.path.join(fontconfig, "cache")}</cachedir>\n'
                "</fontconfig>\n")
    pango_env = dict(os.environ, FONTCONFIG_FILE=os.path.join(fontconfig, "fonts.conf"))
    pango = [SYSTEM_PYTHON, os.path.join(HERE, "pango_render.py"), corpus_json]

    print(f"\nRendering {len(inputs)} mockups (390 × 844 pt, English, Arabic and Hebrew; Noto fonts), "
          f"median of {args.repeats} runs, one process per run, --jobs 1 for typeset", flush=True)
    results = {}
    for output_format in ("pdf", "svg", "png"):
        print(f"{output_format.upper()}" + {"pdf": ", one file", "svg": ", one file per page",
                                             "png": " at 2× (144 dpi), one file per page"}[output_format] + ":")
        if output_format == "pdf":
            target = os.path.join(work, "typeset.pdf")
            command = [typeset, "render", *inputs, "-o", target, "--jobs", "1"]
        elif output_format == "svg":
            target = os.path.join(work, "typeset-svg")
            command = [typeset, "render", *inputs, "--out-dir", target, "--format", "svg", "--jobs", "1"]
        else:
            target = os.path.join(work, "typeset-png")
            command = [typeset, "render", *inputs, "--out-dir", target, "--format", "png", "--scale", "2",
                       "--jobs", "1"]
        # Each tool's previous files are moved aside, not deleted just before its run, as in the
        # --jobs section (see `moved_aside`).
        aside = os.path.join(work, "runs-aside")
        results[output_format, "typeset"] = median_of("typeset", command, args.repeats,
                                                      lambda: moved_aside(target, aside))
        if args.skip_references:
            continue
        if output_format == "pdf":
            target_pango = os.path.join(work, "pango.pdf")
            target_typst = os.path.join(work, "typst.pdf")
            pango_command = pango + ["pdf", target_pango]
            typst = typst_command(corpus_typ, target_typst, "pdf")
        elif output_format == "svg":
            target_pango = os.path.join(work, "pango-svg")
            target_typst = os.path.join(work, "typst-svg")
            pango_command = pango + ["svg", target_pango]
            typst = typst_command(corpus_typ, os.path.join(target_typst, "{p}.svg"), "svg")
        else:
            target_pango = os.path.join(work, "pango-png")
            target_typst = os.path.join(work, "typst-png")
            pango_command = pango + ["png", target_pango, "2"]
            typst = typst_command(corpus_typ, os.path.join(target_typst, "{p}.png"), "png")
        results[output_format, "pango"] = median_of("Pango", pango_command, args.repeats,
                                                    lambda: moved_aside(target_pango, aside), env=pango_env)
        def prepare_typst(target=target_typst, folder=output_format != "pdf"):
            moved_aside(target, aside)
            if folder:
                os.makedirs(target)
        results[output_format, "typst"] = median_of("Typst", typst, args.repeats, prepare_typst)

    fresh(os.path.join(work, "runs-aside"))  # after every timed run of the section

    if not args.skip_references:
        print("\n| format | typeset | Pango | Typst | typeset/Pango | typeset/Typst | peak MiB typeset / Pango / Typst |")
        print("|---|---:|---:|---:|---:|---:|---|")
        for output_format in ("pdf", "svg", "png"):
            ours, pango_result, typst_result = (results[output_format, tool] for tool in ("typeset", "pango", "typst"))
            print(f"| {output_format.upper()} | {ours[0]:.2f} s | {pango_result[0]:.2f} s | {typst_result[0]:.2f} s "
                  f"| {ours[0] / pango_result[0]:.2f} | {ours[0] / typst_result[0]:.2f} "
                  f"| {ours[1]:.0f} / {pango_result[1]:.0f} / {typst_result[1]:.0f} |")
        for output_format in ("pdf", "png"):
            ours = results[output_format, "typeset"][0]
            faster = min(results[output_format, "pango"][0], results[output_format, "typst"][0])
            verdict = "met" if ours <= 0.5 * faster else "NOT met"
            print(f"target {output_format.upper()}: typeset ≤ 0.5 × the faster reference: "
                  f"{ours / faster:.2f} × → {verdict}")
        ours = results["svg", "typeset"][0]
        faster = min(results["svg", "pango"][0], results["svg", "typst"][0])
        print(f"SVG (no target in the issue): typeset takes {ours / faster:.2f} × the faster reference's time")

    print(f"\nParallel batch ({len(inputs)} documents, one output file each):", flush=True)
    for output_format in ("pdf", "png"):
        target = os.path.join(work, f"jobs-{output_format}")
        aside = os.path.join(work, "jobs-aside")
        commands = {jobs: [typeset, "render", *inputs, "--out-dir", target, "--format", output_format,
                           "--jobs", str(jobs)] for jobs in (1, 2)}
        speedup = alternating_speedup(output_format.upper(), commands, max(args.repeats, 5),
                                      lambda: moved_aside(target, aside))
        print(f"  {output_format.upper()}: --jobs 2 is {speedup:.2f} × faster than --jobs 1 "
              f"(target ≥ 1.7: {'met' if speedup >= 1.7 else 'NOT met'})", flush=True)
    # What two cores give on this machine now: two independent --jobs 1 processes side by side.
    # On a machine whose second core is busy elsewhere they take twice as long, and no --jobs
    # can be faster than --jobs 1.
    commands = [[typeset, "render", *inputs, "--out-dir", os.path.join(work, f"pair-{k}"), "--format", "pdf",
                 "--jobs", "1"] for k in (1, 2)]
    for command in commands:
        fresh(command[-5])
    os.sync()
    alone = run(commands[0])[0]
    fresh(commands[0][-5])
    os.sync()
    start = time.perf_counter()
    processes = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in commands]
    for process in processes:
        process.wait()
    together = time.perf_counter() - start
    print(f"  two --jobs 1 processes side by side take {together / alone:.2f} × the time of one "
          f"(1.0: a second core is free; 2.0: it is busy elsewhere)", flush=True)
    fresh(os.path.join(work, "jobs-aside"))  # after every timed run of the section

    snapshot_times(typeset, inputs, work, args.repeats)

    print("\nPeak memory, one PDF of all pages (typeset render ... -o, --jobs 1):", flush=True)
    memory = {}
    for name, files in (("1×", inputs), ("10×", large_inputs)):
        target = os.path.join(work, f"memory-{len(files)}.pdf")
        seconds, mib, _ = run([typeset, "render", *files, "-o", target, "--jobs", "1"])
        memory[name] = mib
        print(f"  {len(files):6d} pages: {mib:6.0f} MiB, {seconds:.2f} s", flush=True)
        fresh(target)
    ratio = memory["10×"] / memory["1×"]
    print(f"  10× the pages take {ratio:.2f} × the memory (target ≤ 1.2: {'met' if ratio <= 1.2 else 'NOT met'})")

    count = min(args.callgrind_count, len(inputs))
    print(f"\nInstructions by library (valgrind --tool=callgrind, {count} documents, --jobs 1):", flush=True)
    shares, first = {}, {}
    for output_format, arguments in (("pdf", ["-o", os.path.join(work, "callgrind.pdf")]),
                                     ("png", ["--out-dir", os.path.join(work, "callgrind-png"), "--format", "png"])):
        shares[output_format] = instruction_shares(typeset, inputs[:count], arguments, work)
        # What a process pays for its first document (loading libraries and fonts, the Swift
        # runtime's first type lookups, building tables): a 1-document run.
        first[output_format] = instruction_shares(typeset, inputs[:1], arguments, work)
    names = sorted({name for _, groups in shares.values() for name in groups},
                   key=lambda n: -shares["png"][1].get(n, 0) - shares["pdf"][1].get(n, 0))
    print(f"  {'':28} {'PDF':>8} {'PNG':>8}")
    for name in names:
        print(f"  {name:28} " + " ".join(f"{100 * shares[f][1].get(name, 0) / shares[f][0]:7.1f}%" for f in ("pdf", "png")))
    print(f"  {'total (million instructions)':28} " + " ".join(f"{shares[f][0] / 1e6:8.0f}" for f in ("pdf", "png")))
    print(f"  (1-document runs take {first['pdf'][0] / 1e6:.0f} million (PDF) and {first['png'][0] / 1e6:.0f} million "
          "(PNG): the fixed cost of a process and its first page)")

    def ours(groups):
        return groups.get("typeset (our code)", 0) + groups.get("Swift runtime", 0)

    # The whole corpus as the timed PDF run renders it (about 15 s under callgrind): with the
    # caches warm, HarfBuzz shapes few words and the fonts are written once, so the libraries'
    # part of a document is smaller than in a 20-document run, and our code's share larger.
    whole = instruction_shares(typeset, inputs, ["-o", os.path.join(work, "callgrind.pdf")], work)
    for f in ("pdf", "png"):
        share = ours(shares[f][1]) / shares[f][0]
        # Every document after the first: the difference of the two runs.
        steady = (ours(shares[f][1]) - ours(first[f][1])) / (shares[f][0] - first[f][0])
        met = share < 0.25 and steady < 0.25
        line = (f"  {f.upper()}: our code with the Swift runtime: {100 * share:.1f}% of {count} documents, "
                f"{100 * steady:.1f}% of each document after the first")
        if f == "pdf":
            whole_share = ours(whole[1]) / whole[0]
            met = met and whole_share < 0.25
            line += (f", {100 * whole_share:.1f}% of all {len(inputs)} ({ours(whole[1]) / len(inputs) / 1000:,.0f} "
                     f"thousand instructions a document against {(whole[0] - ours(whole[1])) / len(inputs) / 1000:,.0f} "
                     "thousand in the libraries and libc)")
        print(line + f" (target < 25%: {'met' if met else 'NOT met'})")
    if not args.skip_references:
        reference_shares(shares, first, corpus_json, count, pango, pango_env, typeset, work)


# What the share of our own code is measured against: the same count for Pango.
REFERENCE_LIBRARIES = ("HarfBuzz", "Cairo", "FreeType", "pixman", "zlib/libpng")
LIBC = "libc (malloc, memcpy, ...)"


def libraries(groups):
    return sum(groups.get(name, 0) for name in REFERENCE_LIBRARIES)


def own(groups):
    """Everything but the libraries the issue names and libc: typeset's code and the Swift
    runtime; Pango, GLib, fontconfig, fribidi, Python and PyGObject."""
    return sum(groups.values()) - libraries(groups) - groups.get(LIBC, 0)


def reference_shares(shares, first, corpus_json, count, pango, pango_env, typeset, work):
    """Pango's instructions for the same documents beside typeset's, counted the same way, per
    document after the first (the difference of a `count`-document run and a 1-document run)."""
    with open(corpus_json) as f:
        corpus = json.load(f)
    slices = {}
    for n in (count, 1):
        slices[n] = os.path.join(work, f"corpus-{n}.json")
        with open(slices[n], "w") as f:
            json.dump(dict(corpus, mockups=corpus["mockups"][:n]), f)

    def per_document(runs, pick):
        (_, groups), (_, first_groups) = runs
        return (pick(groups) - pick(first_groups)) / (count - 1) / 1000

    def columns(runs):
        return (per_document(runs, own), per_document(runs, libraries), per_document(runs, lambda g: g.get(LIBC, 0)))

    print(f"  Per document after the first, in thousands of instructions (the same count for Pango, "
          f"through {os.path.basename(pango[1])}):")
    print(f"  {'':10} {'typeset: own':>13} {'libraries':>10} {'libc':>6}   {'Pango: own':>11} {'libraries':>10} {'libc':>6}")
    for f, arguments in (("pdf", ["pdf", os.path.join(work, "callgrind-pango.pdf")]),
                         ("png", ["png", fresh(os.path.join(work, "callgrind-pango-png")), "2"])):
        pango_runs = [callgrind_groups([*pango[:2], slices[n], *arguments], typeset, work, env=pango_env)
                      for n in (count, 1)]
        ours, theirs = columns((shares[f], first[f])), columns(pango_runs)
        print(f"  {f.upper():10} {ours[0]:13.0f} {ours[1]:10.0f} {ours[2]:6.0f}   "
              f"{theirs[0]:11.0f} {theirs[1]:10.0f} {theirs[2]:6.0f}")


if __name__ == "__main__":
    main()
