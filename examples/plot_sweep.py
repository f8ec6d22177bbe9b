#!/usr/bin/env python3
"""Loads a `barsoom sweep` from its long ("tidy") form and plots each
outcome's rate against the varied setting, with its 95% interval.

    python3 examples/plot_sweep.py SWEEP_DIR [OUT.svg|OUT.png]

SWEEP_DIR is a sweep's output folder (one --vary), e.g.

    barsoom sweep scenarios/wom/padwar-vs-padwar.toml \
        --vary 'sides[0].figures[0].level=3..9' -n 20000 --out sweep
    python3 examples/plot_sweep.py sweep sweep/rates.png

It reads sweep_long.parquet with polars, else pandas, else pyarrow, and
draws with matplotlib when it is installed; without matplotlib it writes a
plain SVG by hand (and says so), so it runs wherever pyarrow does.
"""

import sys
from pathlib import Path


def load(folder):
    """The long form as a list of row dicts, and which library read it."""
    path = folder / "sweep_long.parquet"
    try:
        import polars as pl

        return pl.read_parquet(path).to_dicts(), "polars"
    except ImportError:
        pass
    try:
        import pandas as pd

        return pd.read_parquet(path).to_dict("records"), "pandas"
    except ImportError:
        pass
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist(), "pyarrow"


def series(rows):
    """The varied setting's name and {outcome: [(x, rate, low, high)]}."""
    fixed = {"trials", "kind", "name", "count", "rate", "ci95_low", "ci95_high", "mean", "se"}
    varied = [c for c in rows[0] if c not in fixed]
    if len(varied) != 1:
        sys.exit(f"expected a sweep of one --vary, found {varied}")
    x = varied[0]
    lines = {}
    for r in rows:
        if r["kind"] == "outcome":
            lines.setdefault(r["name"], []).append((r[x], r["rate"], r["ci95_low"], r["ci95_high"]))
    return x, lines


def plot_matplotlib(x, lines, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, points in lines.items():
        points.sort()
        xs = [p[0] for p in points]
        ax.plot(xs, [p[1] for p in points], marker="o", label=name)
        ax.fill_between(xs, [p[2] for p in points], [p[3] for p in points], alpha=0.2)
    ax.set_xlabel(x)
    ax.set_ylabel("rate (95% interval)")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(out)


def plot_svg(x, lines, out):
    width, height, left, top, plot_w, plot_h = 760, 400, 60, 20, 460, 320
    xs = sorted({p[0] for points in lines.values() for p in points})
    lo, hi = xs[0], xs[-1] if xs[-1] != xs[0] else xs[0] + 1
    px = lambda v: left + (v - lo) / (hi - lo) * plot_w
    py = lambda r: top + (1 - r) * plot_h
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
               "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<text x="{left - 6}" y="{py(tick) + 4}" text-anchor="end">{tick}</text>')
    for v in xs:
        parts.append(f'<text x="{px(v)}" y="{top + plot_h + 16}" text-anchor="middle">{v}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 20}" text-anchor="middle">{x}</text>')
    for i, (name, points) in enumerate(lines.items()):
        points.sort()
        c = colours[i % len(colours)]
        band = [(px(p[0]), py(p[3])) for p in points] + [(px(p[0]), py(p[2])) for p in reversed(points)]
        parts.append('<polygon fill="%s" fill-opacity="0.2" points="%s"/>' % (c, " ".join(f"{a:.1f},{b:.1f}" for a, b in band)))
        parts.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (c, " ".join(f"{px(p[0]):.1f},{py(p[1]):.1f}" for p in points)))
        parts.append(f'<text x="{left + plot_w + 16}" y="{top + 14 + 18 * i}" fill="{c}">{name}</text>')
    parts.append("</svg>")
    Path(out).write_text("\n".join(parts))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    folder = Path(sys.argv[1])
    rows, reader = load(folder)
    x, lines = series(rows)
    try:
        out = sys.argv[2] if len(sys.argv) == 3 else str(folder / "rates.png")
        plot_matplotlib(x, lines, out)
        drawn = "matplotlib"
    except ImportError:
        out = sys.argv[2] if len(sys.argv) == 3 and sys.argv[2].endswith(".svg") else str(folder / "rates.svg")
        plot_svg(x, lines, out)
        drawn = "a hand-written SVG (matplotlib is not installed)"
    print(f"read {len(rows)} rows with {reader}; {len(lines)} outcomes against {x}; drew {out} with {drawn}")


if __name__ == "__main__":
    main()
