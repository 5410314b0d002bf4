#!/usr/bin/env python3
"""Batch check and benchmark of `typeset render` (issue 5): a deterministic corpus of localized
mockups with one broken input among them, generated in a temporary folder (never committed).

Checks that every good input is rendered, the exit status is 1, the summary line names the bad
input, the output names are the inputs' names, and that --jobs 1 and --jobs 2 write the same
bytes. Prints the wall time of each run and the peak memory (maximum resident set size from
/usr/bin/time -v) for 100 and for 1,000 inputs.

    python3 Tests/bench/batch.py [--typeset .build/release/typeset] [--count 1000] [--format pdf]
"""
import argparse
import filecmp
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

TITLES = {
    "en": ["Settings", "Account", "Downloads", "Privacy", "Storage"],
    "ar": ["الإعدادات", "الحساب", "التنزيلات", "الخصوصية", "التخزين"],
    "he": ["הגדרות", "חשבון", "הורדות", "פרטיות", "אחסון"],
}
LABELS = {
    "en": ["Wi-Fi: Home Network", "Bluetooth: On", "Version 2.4.1"],
    "ar": ["Wi-Fi: شبكة المنزل", "البلوتوث: مُفعّل", "الإصدار 2.4.1"],
    "he": ["Wi-Fi: רשת הבית", "Bluetooth: פועל", "גרסה 2.4.1"],
}
BUTTONS = {"en": ["DOWNLOAD", "Cancel", "OK"], "ar": ["تنزيل", "إلغاء", "حسنًا"], "he": ["הורדה", "ביטול", "אישור"]}
PARAGRAPHS = {
    "en": "You have used {a} GB of {b} GB on your iPhone. Photos take {c} GB and apps take the rest; "
    "call <ltr>+1 (555) 010-{d}</ltr> for help with Lumen PRO.",
    "ar": "لقد استخدمت {a} غيغابايت من {b} غيغابايت على iPhone. تشغل الصور {c} غيغابايت والتطبيقات الباقي؛ "
    "اتصل بالرقم <ltr>+1 (555) 010-{d}</ltr> للمساعدة في Lumen PRO.",
    "he": "השתמשת ב־{a} GB מתוך {b} GB ב־iPhone. התמונות תופסות {c} GB והיישומים את השאר; "
    "התקשרו ל־<ltr>+1 (555) 010-{d}</ltr> לעזרה עם Lumen PRO.",
}
ITEMS = ["Photos", "الصور", "תמונות", "Documents 2026", "الرسائل (12)"]


def mockup(index: int) -> str:
    rng = random.Random(index)
    lang = ["en", "ar", "he"][index % 3]
    numbers = dict(a=rng.randint(1, 60), b=64, c=rng.randint(1, 30), d=rng.randint(1000, 9999))
    paragraphs = "\n".join(
        f"  <p>{PARAGRAPHS[rng.choice(['en', 'ar', 'he'])].format(**numbers)}</p>" for _ in range(rng.randint(1, 2))
    )
    items = "".join(f"<item>{rng.choice(ITEMS)} {n + 1}</item>" for n in range(5))
    buttons = "".join(f"<button>{b}</button>" for b in BUTTONS[lang])
    return (
        f'<document lang="{lang}" width="390" height="844" numerals="auto">\n'
        f"  <title>{TITLES[lang][index % 5]} {index}</title>\n"
        f"  <label>{LABELS[lang][index % 3]}</label>\n"
        f"  <row>{buttons}</row>\n{paragraphs}\n  <list>{items}</list>\n</document>\n"
    )


def make_corpus(folder: str, count: int, bad: int) -> list:
    os.makedirs(folder)
    paths = []
    for index in range(1, count + 1):
        path = os.path.join(folder, f"screen-{index:04d}.xml")
        text = mockup(index) if index != bad else "<document>\n  <p>unclosed paragraph</q>\n</document>\n"
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        paths.append(path)
    return paths


def run(typeset: str, inputs: list, out: str, fmt: str, jobs: int):
    """Runs the batch under /usr/bin/time -v: (status, seconds, peak KB, last stderr line)."""
    command = ["/usr/bin/time", "-v", typeset, "render", *inputs, "--out-dir", out, "--format", fmt,
               "--jobs", str(jobs)]
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - start
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1))
    cpu = sum(float(re.search(rf"{kind} time \(seconds\): ([\d.]+)", result.stderr).group(1)) for kind in ("User", "System"))
    ours = [line for line in result.stderr.splitlines() if not line.startswith("\t") and "Command being timed" not in line]
    summary = [line for line in ours if line.startswith("rendered ")]
    return result.returncode, seconds, peak, summary[-1] if summary else "", ours, cpu


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--typeset", default=".build/release/typeset")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--format", default="pdf", choices=["pdf", "svg", "png"])
    parser.add_argument("--bad", type=int, default=537, help="the broken input's number")
    parser.add_argument("--folder", help="where the temporary corpus goes (e.g. /dev/shm, to leave the disk out)")
    arguments = parser.parse_args()
    typeset = os.path.abspath(arguments.typeset)
    failures = []
    with tempfile.TemporaryDirectory(prefix="typeset-batch-", dir=arguments.folder) as folder:
        inputs = make_corpus(os.path.join(folder, "in"), arguments.count, arguments.bad)
        bad_input = inputs[arguments.bad - 1]
        expected = sorted(f"screen-{i:04d}.{arguments.format}" for i in range(1, arguments.count + 1) if i != arguments.bad)
        print(f"load average {os.getloadavg()[0]:.2f}; {arguments.count} inputs ({arguments.format}), input {arguments.bad} broken; {os.cpu_count()} cores")
        results = {}
        for jobs in (1, 2):
            out = os.path.join(folder, f"out-jobs{jobs}")
            status, seconds, peak, summary, lines, cpu = run(typeset, inputs, out, arguments.format, jobs)
            results[jobs] = seconds
            print(f"--jobs {jobs}: {seconds:6.2f} s wall, {cpu:6.2f} s CPU  peak RSS {peak / 1024:6.1f} MB  exit {status}"
                  f"  | {summary}")
            written = sorted(os.listdir(out))
            if status != 1:
                failures.append(f"--jobs {jobs}: exit {status}, expected 1")
            if summary != f"rendered {arguments.count - 1} of {arguments.count} inputs; failed: {bad_input}":
                failures.append(f"--jobs {jobs}: summary line is {summary!r}")
            if not any(line.startswith(f"{bad_input}:2:") and ": error: " in line for line in lines):
                failures.append(f"--jobs {jobs}: no located error for the bad input")
            if written != expected:
                missing = sorted(set(expected) - set(written))[:5]
                failures.append(f"--jobs {jobs}: {len(written)} files written, expected {len(expected)}; missing {missing}")
        if results.get(2):
            print(f"speed-up --jobs 2 over --jobs 1: x{results[1] / results[2]:.2f}")
        _, mismatch, errors = filecmp.cmpfiles(
            os.path.join(folder, "out-jobs1"), os.path.join(folder, "out-jobs2"), expected, shallow=False)
        if mismatch or errors:
            failures.append(f"--jobs 1 and --jobs 2 differ in {len(mismatch) + len(errors)} files, e.g. {(mismatch + errors)[:3]}")
        # Memory stays flat: the same work per input, ten times the inputs.
        small = inputs[:100]
        out = os.path.join(folder, "out-100")
        status_small, seconds, peak_small, summary_small, _, _ = run(typeset, small, out, arguments.format, 2)
        shutil.rmtree(out)
        out = os.path.join(folder, "out-1000")
        status_large, seconds_large, peak_large, summary_large, _, _ = run(typeset, inputs, out, arguments.format, 2)
        for count, status, summary in ((len(small), status_small, summary_small), (len(inputs), status_large, summary_large)):
            failed = [path for path in inputs[:count] if path == bad_input]
            expected = f"rendered {count - len(failed)} of {count} inputs" + (f"; failed: {bad_input}" if failed else "")
            if status != (1 if failed else 0) or summary != expected:
                failures.append(f"memory run of {count} inputs: exit {status}, summary {summary!r}, expected {expected!r}")
        print(f"peak RSS --jobs 2: {len(small)} inputs {peak_small / 1024:.1f} MB, {len(inputs)} inputs "
              f"{peak_large / 1024:.1f} MB (x{peak_large / peak_small:.2f})")
    for failure in failures:
        print("FAILED: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
