"""Real JPEGs for the stories, drawn at test time with Pillow (no binary fixtures in git).

Pillow comes from PyPI into .venv (scripts/browser-test installs it), so the stories need no image program on the
machine: ImageMagick's `convert` is not something scripts/test installs, and on a fresh machine of this kind a
stand-in that fails sits in its place.
"""

import os

from PIL import Image, ImageColor


def gradient_jpeg(directory, name, size, top, bottom, quality=90):
    """A JPEG of `size` (width, height) shading from colour `top` to colour `bottom` (CSS names), top to bottom."""
    width, height = size
    start, end = ImageColor.getrgb(top), ImageColor.getrgb(bottom)
    column = Image.new("RGB", (1, height))
    for y in range(height):
        t = y / max(1, height - 1)
        column.putpixel((0, y), tuple(round(a + (b - a) * t) for a, b in zip(start, end)))
    path = os.path.join(directory, name)
    column.resize(size).save(path, "JPEG", quality=quality)
    return path


def noise_jpeg(directory, name, size, quality=92):
    """A JPEG of random colours: its bytes don't repeat, so any chunk of the file names this photo only."""
    width, height = size
    # Blocks of 4×4 pixels, so the JPEG stays a photo's size rather than the worst case of pure per-pixel noise.
    small = Image.frombytes("RGB", (width // 4, height // 4), os.urandom((width // 4) * (height // 4) * 3))
    path = os.path.join(directory, name)
    small.resize(size, Image.BILINEAR).save(path, "JPEG", quality=quality)
    return path
