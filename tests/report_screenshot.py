#!/usr/bin/env python3
"""Checks a headless-Chromium screenshot and DOM dump of a barsoom report.

    report_screenshot.py SCREENSHOT.png DOM.html CHARTS

Fails (exit 1, one line per problem) unless the screenshot is not blank
(enough non-white pixels and distinct colours), the chart colours are on
screen (pixels of the charts' palette) and the DOM holds at least CHARTS
inline <svg> charts and no external resource. Standard library only: the
PNG is decoded with zlib.
"""

import re
import struct
import sys
import zlib
from collections import Counter

# The first colours of the charts' palette (src/report/charts.rs BAR_COLORS).
CHART_COLOURS = [(0x4C, 0x72, 0xB0), (0xDD, 0x84, 0x52), (0x55, 0xA8, 0x68)]


def read_png(path):
    """Width, height, channels and the unfiltered rows (bytes) of an 8-bit
    RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError(f"{path}: no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"{path}: expected 8-bit RGB or RGBA, not interlaced")
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + (left + previous[i]) // 2) & 0xFF
        elif kind == 4:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                up = previous[i]
                corner = previous[i - channels] if i >= channels else 0
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    png, dom_path, charts = sys.argv[1], sys.argv[2], int(sys.argv[3])
    width, height, channels, rows = read_png(png)
    # Colours quantised to 5 bits a channel, counted on every second pixel
    # of every second row (the thresholds are fractions of the page).
    counts = Counter()
    for row in rows[::2]:
        for x in range(0, width * channels, 2 * channels):
            counts[(row[x] >> 3, row[x + 1] >> 3, row[x + 2] >> 3)] += 1
    total = sum(counts.values())
    non_white = sum(n for q, n in counts.items() if min(q) < 30) / total
    distinct = len(counts)
    near = {
        (r + dr, g + dg, b + db)
        for r, g, b in ((r >> 3, g >> 3, b >> 3) for r, g, b in CHART_COLOURS)
        for dr in (-1, 0, 1)
        for dg in (-1, 0, 1)
        for db in (-1, 0, 1)
    }
    palette = sum(n for q, n in counts.items() if q in near) / total
    with open(dom_path, encoding="utf-8") as f:
        dom = f.read()
    svgs = len(re.findall(r"<svg\b", dom))
    external = re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", dom)
    print(
        f"screenshot {width}x{height}: {non_white:.1%} non-white, {distinct} distinct colours, "
        f"{palette:.2%} in the charts' palette; DOM: {svgs} <svg> of {charts} charts"
    )
    problems = []
    if (width, height) != (1280, 2000):
        problems.append(f"expected a 1280x2000 screenshot, found {width}x{height}")
    if non_white < 0.05:
        problems.append(f"the page looks blank: {non_white:.1%} of pixels are not white")
    if distinct < 30:
        problems.append(f"the page looks blank: only {distinct} distinct colours")
    if palette < 0.003:
        problems.append(f"no chart on screen: {palette:.2%} of pixels in the charts' palette")
    if svgs < charts:
        problems.append(f"expected {charts} inline <svg> charts in the DOM, found {svgs}")
    if external:
        problems.append(f"external resources referenced: {external[:3]}")
    for p in problems:
        print(f"report screenshot: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
