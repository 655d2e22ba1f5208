"""BlurHashes made by PyPI's `blurhash` (a pure-Python port of Wolt's reference encoder), the reference our
encoder (Sources/SpotterImaging/BlurHash.swift) is tested against byte for byte:
Tests/SpotterImagingTests/blurhash-vectors.json.

Regenerate with a Python that has blurhash (the tests don't need it; they read the file):
    .venv/bin/pip install "blurhash==1.1.5"
    .venv/bin/python scripts/blurhash-vectors.py > Tests/SpotterImagingTests/blurhash-vectors.json
The pixels come from a seeded generator, so the output is the same on every run (made with blurhash 1.1.5).
"""

import base64
import json
import math
import random
import sys

import blurhash

rng = random.Random(26)


def solid(w, h, rgb):
    return [[list(rgb) for _ in range(w)] for _ in range(h)]


def noise(w, h):
    return [[[rng.randrange(256) for _ in range(3)] for _ in range(w)] for _ in range(h)]


def gradient(w, h):
    return [[[x * 255 // max(1, w - 1), y * 255 // max(1, h - 1), (x + y) * 255 // max(1, w + h - 2)]
             for x in range(w)] for y in range(h)]


def photo_like(w, h):
    # A sky, a horizon and a sun: smooth areas with an edge, as a 32-px thumbnail of a photo looks.
    sun = (rng.uniform(0.2, 0.8) * w, rng.uniform(0.1, 0.4) * h, rng.uniform(2, 6))
    horizon = rng.uniform(0.4, 0.7) * h
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            if math.hypot(x - sun[0], y - sun[1]) < sun[2]:
                pixel = [255, 230, 120]
            elif y < horizon:
                pixel = [90 + y * 3, 140 + y * 2, 230]
            else:
                pixel = [40 + rng.randrange(30), 110 + rng.randrange(40), 40]
            row.append([min(255, c) for c in pixel])
        rows.append(row)
    return rows


def checker(w, h):
    return [[[255, 255, 255] if (x // 4 + y // 4) % 2 else [0, 0, 0] for x in range(w)] for y in range(h)]


cases = [
    ("black", 32, 24, solid(32, 24, (0, 0, 0))),
    ("white", 32, 24, solid(32, 24, (255, 255, 255))),
    ("mid grey", 24, 32, solid(24, 32, (128, 128, 128))),
    ("red", 32, 32, solid(32, 32, (255, 0, 0))),
    ("one pixel", 1, 1, [[[12, 200, 99]]]),
    ("one row", 17, 1, noise(17, 1)),
    ("one column", 1, 13, noise(1, 13)),
    ("gradient landscape", 32, 24, gradient(32, 24)),
    ("gradient portrait", 24, 32, gradient(24, 32)),
    ("checker", 32, 32, checker(32, 32)),
]
cases += [(f"noise {i}", w, h, noise(w, h)) for i, (w, h) in enumerate([(32, 24), (24, 32), (7, 5), (32, 21), (11, 32)])]
cases += [(f"photo {i}", w, h, photo_like(w, h)) for i, (w, h) in enumerate([(32, 24), (24, 32), (32, 18), (32, 32), (18, 32)] * 2)]

components = [(4, 3), (4, 3), (4, 3), (1, 1), (9, 9), (3, 4), (5, 2), (2, 9)]

vectors = []
for index, (name, w, h, image) in enumerate(cases):
    for cx, cy in {components[index % len(components)], (4, 3)}:
        flat = bytes(c for row in image for pixel in row for c in pixel)
        vectors.append({
            "name": name, "width": w, "height": h, "components_x": cx, "components_y": cy,
            "rgb": base64.b64encode(flat).decode(), "hash": blurhash.encode(image, cx, cy),
        })

json.dump(vectors, sys.stdout, indent=1)
sys.stdout.write("\n")
