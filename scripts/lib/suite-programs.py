"""Fails early, naming the program, when a test starts a program that is not on the suites' PATH.

Usage: python3 scripts/lib/suite-programs.py SUITE_PATH [folder …]   (default folder: Tests)

scripts/test runs this before it builds anything: it reads the tests for the programs they start by name and
looks each up on SUITE_PATH (scripts/lib/suite-path.sh), the only PATH the suites run with. The suites' own
PATH catches what this reading misses, when the test runs; this is the early, named half of the same check.

What counts as starting a program by name:
- Python: `subprocess.run(["name", …])` (and Popen, call, check_call, check_output);
- Swift: a `Process` through `/usr/bin/env` whose first argument is a literal (`arguments = ["name", …]`,
  `["name"] + …`), or a helper called with one (`run("name", …)`) in a file that starts processes that way.
"""

import pathlib
import re
import shutil
import sys

PYTHON = re.compile(r"subprocess\.(?:run|Popen|call|check_call|check_output)\(\s*\[\s*[\"']([A-Za-z0-9_.+-]+)[\"']")
SWIFT_ARGUMENTS = re.compile(r"arguments\s*=\s*\[\s*\"([A-Za-z0-9_.+-]+)\"")
SWIFT_HELPER = re.compile(r"\brun\(\s*\"([A-Za-z0-9_.+-]+)\"\s*,")


def started(path):
    """(line number, program) for each program the file starts by name."""
    text = path.read_text(errors="replace")
    patterns = []
    if path.suffix == ".py":
        patterns = [PYTHON]
    elif path.suffix == ".swift" and "/usr/bin/env" in text:
        patterns = [SWIFT_ARGUMENTS, SWIFT_HELPER]
    for pattern in patterns:
        for match in pattern.finditer(text):
            yield text.count("\n", 0, match.start()) + 1, match.group(1)


def main():
    suite_path = sys.argv[1]
    folders = sys.argv[2:] or ["Tests"]
    missing = []
    for folder in folders:
        for path in sorted(pathlib.Path(folder).rglob("*")):
            if path.suffix not in (".py", ".swift") or not path.is_file():
                continue
            for line, program in started(path):
                if shutil.which(program, path=suite_path) is None:
                    missing.append(f"{path}:{line} starts `{program}`, which scripts/test does not install")
    for message in missing:
        print(message, file=sys.stderr)
    if missing:
        print("Install it in scripts/test (suite_programs in scripts/lib/suite-path.sh) or draw on what the suite "
              "has: a fresh machine has only what scripts/test installs.", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
