"""Instructions per request by library (ELF object), from a callgrind file: what `scripts/profile-callgrind`
prints after its total. Each function's own instructions count for the object it lives in; the cost lines
that follow a `calls=` line are the callee's, counted where the callee is.

    python3 scripts/lib/callgrind-by-object.py CALLGRIND_FILE REQUESTS
"""

import collections
import re
import sys

# Callgrind compresses names: "(7) /usr/lib/libsqlite3.so" the first time, "(7)" after.
names: dict[tuple[str, str], str] = {}


def name(kind: str, value: str) -> str:
    match = re.match(r"\((\d+)\)(?: (.*))?", value)
    if not match:
        return value
    key = (kind, match.group(1))
    if match.group(2):
        names[key] = match.group(2)
    return names.get(key, "?")


path, requests = sys.argv[1], int(sys.argv[2])
own: collections.Counter[str] = collections.Counter()
current_object, function_object, callee_cost_next = "?", "?", False
with open(path, errors="replace") as lines:
    for line in lines:
        if line.startswith("ob="):
            current_object = name("ob", line[3:].strip())
        elif line.startswith("fn="):
            function_object = current_object
        elif line.startswith("cob="):
            name("ob", line[4:].strip())
        elif line.startswith("calls="):
            callee_cost_next = True
        elif line[:1].isdigit() or line[:1] in "+-*":
            if callee_cost_next:
                callee_cost_next = False
                continue
            fields = line.split()
            if len(fields) >= 2:
                own[function_object] += int(fields[1])

total = sum(own.values())
for library, instructions in own.most_common():
    if instructions * 1000 < total:
        break
    print(f"{instructions / requests:12,.0f}  {100 * instructions / total:5.1f}%  {library.rsplit('/', 1)[-1]}")
