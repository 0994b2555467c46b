"""Figures shared by tm-report and the paper experiment (benchmarks/paper):
one colour-blind-safe palette (Okabe and Ito), strategies drawn in the same
colour everywhere, and the machine pictures.

Matplotlib (Debian's python3-matplotlib) with the Agg backend: no display.
"""
import math
import re

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.patches  # noqa: E402  (after the backend)
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

# Colour bars in bytes say "20 MB", never a "1e7" multiplier that the
# colour bar's top would print over the panel's title.
BYTES = matplotlib.ticker.EngFormatter(unit="B")

# Okabe and Ito's palette: distinguishable with every common colour-vision deficiency.
OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"]
GREY = "#9A9A9A"
HIGHLIGHT = "#D55E00"  # vermillion: the chosen mapping

# A fixed colour per strategy family, with hatches to tell members apart
# (11 similar colours were unreadable).
_FAMILY = {
    "inorder": (GREY, ""), "roundrobin": (GREY, "//"), "random": (GREY, ".."),
    "scotch": ("#0072B2", ""), "treematch": ("#56B4E9", ""), "rb": ("#56B4E9", "//"),
    "ohtma": ("#E69F00", ""), "ohtma+": ("#E69F00", "//"),
    "greedy": ("#CC79A7", ""), "rcm": ("#CC79A7", "//"),
    "umpa-greedy": ("#009E73", ".."), "umpa-wh": ("#009E73", ""), "umpa-mc": ("#009E73", "//"),
    "grid2d": ("#F0E442", ""), "best": ("#000000", ""),
}


def style(strategy):
    """(colour, hatch) of a strategy; 'NAME:REFINE' and external names too."""
    base = strategy.split(":")[0]
    return _FAMILY.get(base, ("#CC79A7", "xx"))


def spans_orders(values, factor=20.0):
    positive = [v for v in values if v > 0]
    return len(positive) >= 2 and max(positive) / min(positive) >= factor


def ratio_log_axis(ax, values, factor=8.0):
    """Ratios that span `factor` or more (0.5 to 15, say): a log y axis with
    plain ticks, so that the small ones stay readable beside the large."""
    positive = [v for v in values if v > 0]
    if not spans_orders(positive, factor=factor):
        return
    ax.set_yscale("log")
    ticks = [t for t in (0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 7, 10, 15, 20)
             if min(positive) / 1.2 <= t <= max(positive) * 1.2]
    ax.set_yticks(ticks)
    ax.set_yticklabels([f"{t:g}" for t in ticks])
    ax.minorticks_off()


def ranked_bars(ax, names, values, chosen, xlabel, labels=None):
    """Horizontal bars, best (smallest) at the top; the chosen one in
    vermillion, the others grey; a log axis when values span >= 20x."""
    order = sorted(range(len(names)), key=lambda k: (values[k], names[k]))
    ys = list(range(len(order)))[::-1]
    for y, k in zip(ys, order):
        ax.barh(y, values[k], color=HIGHLIGHT if names[k] == chosen else GREY, edgecolor="black", linewidth=0.4)
        text = labels[k] if labels else f"{values[k]:,.0f}"
        ax.text(values[k], y, "  " + text, va="center", fontsize=8)
    ax.set_yticks(ys)
    ax.set_yticklabels([names[k] + ("  (chosen)" if names[k] == chosen else "") for k in order], fontsize=9)
    if spans_orders(values):
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.margins(x=0.25)
    ax.grid(True, axis="x", linewidth=0.3)


def distance_heatmap(ax, names, histograms):
    """Share of each strategy's bytes at each distance (rows: strategies)."""
    distances = sorted({d for h in histograms for d in h})
    grid = []
    for h in histograms:
        total = sum(h.values()) or 1
        grid.append([h.get(d, 0) / total for d in distances])
    image = ax.imshow(grid, aspect="auto", cmap="viridis", vmin=0.0, vmax=1.0)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=9)
    ax.set_xticks(range(len(distances)))
    ax.set_xticklabels([str(d) for d in distances], fontsize=8)
    ax.set_xlabel("distance (hops, or the target's distance unit)")
    for i, row in enumerate(grid):
        for j, share in enumerate(row):
            if share >= 0.005:
                ax.text(j, i, f"{100 * share:.0f}", ha="center", va="center", fontsize=7,
                        color="black" if share > 0.6 else "white")
    return image


_TIANHE3 = re.compile(r"tianhe3:(\d+)x(\d+)(?:,nodes=(\d+))?(?:,cores=(\d+))?$")
_GRID2D = re.compile(r"(mesh2D|torus2D)\s+(\d+)\s+(\d+)$")
_TLEAF = re.compile(r"tleaf\s+(\d+)((?:\s+\d+\s+\d+)+)$")


def _tleaf_fanouts(topology):
    """Scotch's tleaf: the fan-out of each level, or None."""
    m = _TLEAF.match(topology.strip())
    if not m:
        return None
    numbers = [int(x) for x in m.group(2).split()]
    fanouts = numbers[0::2]
    return fanouts if len(fanouts) == int(m.group(1)) and all(f >= 1 for f in fanouts) else None


def node_grid(topology):
    """For machines tm-report can draw: (rows, cols, cell of a PE, caption),
    else None. Tianhe-3: chips in their mesh, each chip two rows (its
    halves) of nodes; 2D meshes and tori: PE x + X y at (y, x)."""
    m = _TIANHE3.match(topology.replace(" ", ""))
    if m:
        rows, cols = int(m.group(1)), int(m.group(2))
        nodes = int(m.group(3) or 96)
        cores = int(m.group(4) or 1)
        half = nodes // 2

        def cell(pe):
            node = pe // cores
            chip, k = divmod(node, nodes)
            side, i = divmod(k, half)
            return (chip // cols) * 2 + side, (chip % cols) * half + i

        return rows * 2, cols * half, cell, f"{rows}x{cols} chips, 2 halves of {half} nodes each; a cell = a node"
    m = _GRID2D.match(topology.strip())
    if m:
        x, y = int(m.group(2)), int(m.group(3))
        return y, x, (lambda pe: (pe // x, pe % x)), f"{m.group(1)} {x} x {y}; a cell = a PE"
    fanouts = _tleaf_fanouts(topology)
    if fanouts:
        # A row per node (the leaves below one last-level switch), a cell per PE.
        last = fanouts[-1]
        nodes = math.prod(fanouts[:-1])
        return nodes, last, (lambda pe: divmod(pe, last)), f"tree: a row = a node of {last} PEs, a cell = a PE"
    return None


def node_cell(topology):
    """(rows, cols, cell of a node index, separators, caption) for the
    machines node_grid draws; separators are the chip boundaries (Tianhe-3:
    ("h", y) and ("v", x) lines between chips), None elsewhere."""
    grid = node_grid(topology)
    if grid is None:
        return None
    rows, cols, cell, caption = grid
    fanouts = _tleaf_fanouts(topology)
    if fanouts:
        # Nodes in a grid: a row per top-level switch, lines between them.
        nodes = math.prod(fanouts[:-1])
        groups = fanouts[0] if len(fanouts) > 2 else 1
        per = nodes // groups
        return (groups, per, (lambda node: divmod(node, per)), [],
                f"tree: a row = a top-level switch's {per} nodes, a cell = a node")
    m = _TIANHE3.match(topology.replace(" ", ""))
    if not m:
        return rows, cols, cell, [], caption
    chip_rows, chip_cols = int(m.group(1)), int(m.group(2))
    nodes = int(m.group(3) or 96)
    cores = int(m.group(4) or 1)
    half = nodes // 2
    lines = [("h", 2 * r - 0.5) for r in range(1, chip_rows)] + [("v", half * c - 0.5) for c in range(1, chip_cols)]
    return rows, cols, (lambda node: cell(node * cores)), lines, caption.replace("a cell = a node", "a cell = a node; white lines: chips")


def node_traffic(ax, topology, traffic, top, title):
    """Bytes each node exchanges with other nodes (tm-map's node_traffic),
    nodes without ranks grey, chips outlined; one colour scale `top` for
    panels that are compared. False when the machine cannot be drawn."""
    layout = node_cell(topology)
    if layout is None:
        return False
    rows, cols, cell, lines, caption = layout
    values = np.full((rows, cols), np.nan)
    for node, b in traffic:
        r, c = cell(node)
        values[r][c] = b
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("#d9d9d9")
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, interpolation="nearest", vmin=0, vmax=top or 1)
    for kind, at in lines:
        (ax.axhline if kind == "h" else ax.axvline)(at, color="white", linewidth=2)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(caption + "; grey: no rank", fontsize=8)
    ax.set_xticks([])
    ax.set_yticks([])
    plt.colorbar(image, ax=ax, fraction=0.046, pad=0.02, label="to and from other nodes", format=BYTES)
    return True


def occupancy(ax, topology, mapping, title):
    """Ranks per cell of the machine picture; False when it cannot be drawn."""
    grid = node_grid(topology)
    if grid is None:
        return False
    rows, cols, cell, caption = grid
    counts = np.zeros((rows, cols))
    rank_at = np.full((rows, cols), np.nan)
    for rank, pe in enumerate(mapping):
        r, c = cell(pe)
        counts[r][c] += 1
        rank_at[r][c] = rank
    if counts.max() <= 1:
        # One rank per PE: the count is 1 everywhere; which rank sits where
        # shows the placement (empty PEs grey).
        cmap = plt.get_cmap("viridis").copy()
        cmap.set_bad("#d9d9d9")
        image = ax.imshow(np.ma.masked_invalid(rank_at), cmap=cmap, interpolation="nearest", vmin=0,
                          vmax=max(len(mapping) - 1, 1))
        label = "rank (grey: no rank)"
    else:
        image = ax.imshow(counts, cmap="cividis", interpolation="nearest", vmin=0)
        label = "ranks"
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(caption, fontsize=8)
    ax.set_xticks([])
    ax.set_yticks([])
    plt.colorbar(image, ax=ax, fraction=0.046, pad=0.02, label=label, ticks=matplotlib.ticker.MaxNLocator(integer=True))
    return True


def _pes_per_cell(topology):
    """PEs that node_grid puts in one cell: a Tianhe-3 node's cores, else 1."""
    m = _TIANHE3.match(topology.replace(" ", ""))
    return int(m.group(4) or 1) if m else 1


def _grid_colour(rank, grid):
    """A rank's colour by its place in a grid X x Y (rank = x + X y): red
    across, blue down, so neighbours in the grid look alike."""
    x_size, y_size = grid
    x, y = rank % x_size, (rank // x_size) % y_size
    return (0.15 + 0.8 * x / max(x_size - 1, 1), 0.45, 0.15 + 0.8 * y / max(y_size - 1, 1))


def placement_rows(topology):
    """How many rows of PE squares placement draws (for the figure's height)."""
    layout = node_grid(topology)
    if layout is None:
        return 0
    per = _pes_per_cell(topology)
    return layout[0] * math.ceil(per / math.ceil(math.sqrt(per)))


def placement(ax, topology, mapping, title, grid=None):
    """The mapping drawn on its machine: each node a box, each of its PEs a
    square holding the rank placed there (its number), coloured by the
    rank's place in `grid` (X, Y) when given, else by rank; chips outlined
    on Tianhe-3. False when the machine cannot be drawn."""
    layout = node_grid(topology)
    if layout is None:
        return False
    rows, cols, cell, caption = layout
    per = _pes_per_cell(topology)
    across = math.ceil(math.sqrt(per))
    down = math.ceil(per / across)
    gap = 0.5 if per > 1 else 0.1
    width, height = across + gap, down + gap
    rank_of = {}
    for rank, pe in enumerate(mapping):
        rank_of.setdefault(pe, rank)
    cmap = plt.get_cmap("viridis")
    top = max(len(mapping) - 1, 1)
    used_cells = {cell(pe) for pe in mapping}
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * width, r * height
            if per > 1:
                ax.add_patch(matplotlib.patches.Rectangle((x0 - 0.1, y0 - 0.1), across + 0.2, down + 0.2, fill=False,
                                                          edgecolor="#444" if (r, c) in used_cells else "#bbb",
                                                          linewidth=1.0))
    for pe in range(max(mapping) + 1 if mapping else 0):
        r, c = cell(pe)
        k = pe % per
        x, y = c * width + k % across, r * height + k // across
        rank = rank_of.get(pe)
        if rank is None:
            colour = "#e0e0e0"
        else:
            colour = _grid_colour(rank, grid) if grid else cmap(rank / top)
        ax.add_patch(matplotlib.patches.Rectangle((x + 0.05, y + 0.05), 0.9, 0.9, facecolor=colour, edgecolor="none"))
        if rank is not None and len(mapping) <= 256:
            shade = matplotlib.colors.to_rgb(colour)
            light = 0.299 * shade[0] + 0.587 * shade[1] + 0.114 * shade[2] > 0.55
            ax.text(x + 0.5, y + 0.52, str(rank), ha="center", va="center", fontsize=7,
                    color="black" if light else "white")
    m = _TIANHE3.match(topology.replace(" ", ""))
    if m:  # chips: a line between each two
        chip_rows, chip_cols = int(m.group(1)), int(m.group(2))
        half = (int(m.group(3) or 96)) // 2
        for i in range(1, chip_cols):
            ax.axvline(i * half * width - gap / 2 - 0.05, color="#D55E00", linewidth=2)
        for i in range(1, chip_rows):
            ax.axhline(i * 2 * height - gap / 2 - 0.05, color="#D55E00", linewidth=2)
    ax.set_xlim(-0.3, cols * width)
    ax.set_ylim(rows * height, -0.3)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=10)
    note = "colour: the rank's place in its grid" if grid else "colour: rank"
    ax.set_xlabel(caption.replace("a cell = a node", "a box = a node, a square = a PE") + "; " + note, fontsize=8)
    ax.set_xticks([])
    ax.set_yticks([])
    return True


_CHIP = re.compile(r"chip\((\d+),(\d+)\)(?:\.([LR]))?")
_PES = re.compile(r"(\d+)-(\d+)$")


def _draw_segments(ax, segments):
    """segments: (x0, y0, x1, y1, bytes); colour and width by bytes."""
    top = max((b for *_, b in segments), default=0) or 1
    cmap = plt.get_cmap("viridis")
    for x0, y0, x1, y1, b in segments:
        ax.plot([x0, x1], [y0, y1], color=cmap(b / top), linewidth=1 + 7 * b / top, solid_capstyle="round")
    mappable = matplotlib.cm.ScalarMappable(norm=matplotlib.colors.Normalize(0, top), cmap=cmap)
    plt.colorbar(mappable, ax=ax, fraction=0.046, pad=0.02, label="on the link", format=BYTES)


def link_picture(ax, topology, links):
    """Bytes on each link of the machine, drawn on its layout: Tianhe-3's
    chip mesh (row and column links between chips, the side link inside
    each chip, the bytes its nodes inject) and 2D meshes (a segment per
    link). `links`: rows of tm-map --link-loads. False when not drawable."""
    th = _TIANHE3.match(topology.replace(" ", ""))
    if th:
        segments = []
        inject = {}
        side = {}
        for row in links:
            name, b = row["name"], float(row["bytes"])
            chips = _CHIP.findall(name)
            if row["kind"] == "node" and chips:
                key = (int(chips[0][0]), int(chips[0][1]))
                inject[key] = inject.get(key, 0.0) + b
            elif len(chips) == 2:
                (r0, c0, _), (r1, c1, _) = chips
                if (r0, c0) == (r1, c1):  # the link between the chip's two halves
                    side[(int(r0), int(c0))] = b
                else:
                    segments.append((int(c0), int(r0), int(c1), int(r1), b))
        _draw_segments(ax, segments)
        rows, cols = int(th.group(1)), int(th.group(2))
        for r in range(rows):
            for c in range(cols):
                # The chip: its two halves (L, R) side by side, with what crosses between them.
                ax.add_patch(matplotlib.patches.Rectangle((c - 0.22, r - 0.12), 0.44, 0.24, facecolor="white",
                                                          edgecolor="black", linewidth=0.8, zorder=3))
                ax.plot([c, c], [r - 0.12, r + 0.12], color="black", linewidth=0.6, zorder=4)
                for dx, half in ((-0.11, "L"), (0.11, "R")):
                    ax.text(c + dx, r, half, ha="center", va="center", fontsize=7, zorder=5)
                ax.text(c, r + 0.2, f"L-R {side.get((r, c), 0):,.0f} B; nodes inject {inject.get((r, c), 0):,.0f} B",
                        ha="center", fontsize=6)
        ax.set_xlim(-0.6, cols - 0.4)
        ax.set_ylim(rows - 0.4, -0.6)
        ax.set_xticks(range(cols))
        ax.set_yticks(range(rows))
        ax.set_xlabel("chip column")
        ax.set_ylabel("chip row")
        return True
    grid = _GRID2D.match(topology.strip())
    if grid:
        x = int(grid.group(2))
        segments = []
        for row in links:
            m = _PES.match(row["name"])
            if not m:
                continue
            a, b = int(m.group(1)), int(m.group(2))
            (ya, xa), (yb, xb) = divmod(a, x), divmod(b, x)
            load = float(row["bytes"])
            if abs(xa - xb) + abs(ya - yb) == 1:
                segments.append((xa, ya, xb, yb, load))
                continue
            # A torus's wrap-around link: a stub leaving each end outward,
            # in the link's colour (they meet across the picture's edge).
            dx, dy = (0.5 if xb < xa else -0.5) if ya == yb else 0, (0.5 if yb < ya else -0.5) if xa == xb else 0
            segments.append((xa, ya, xa + dx, ya + dy, load))
            segments.append((xb, yb, xb - dx, yb - dy, load))
        _draw_segments(ax, segments)
        ax.invert_yaxis()
        ax.set_aspect("equal")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        return True
    return False


def figure(width, height):
    return plt.subplots(figsize=(width, height))


def save(fig, path, dpi=100):
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def nice_ratio(value):
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


__all__ = ["OKABE_ITO", "GREY", "HIGHLIGHT", "style", "spans_orders", "ratio_log_axis", "ranked_bars", "distance_heatmap",
           "node_grid", "occupancy", "link_picture", "figure", "save", "nice_ratio", "math"]


def machine_picture(description, path):
    """The network of a machine description (tm-topo --describe --format
    json): compute nodes at the bottom, named; switches and routers above,
    by level; each cable drawn once per pair of elements, as wide as the
    parallel cables it stands for, coloured by its kind. A network with no
    switches (a torus of nodes) is drawn on a circle."""
    graph = description.get("graph") or []
    nodes = description.get("hosts") or []
    kinds = [c["kind"] for c in description.get("cables", [])]
    key = lambda end: ("n", end["node"]) if "node" in end else ("s", end["switch"])  # noqa: E731
    # Levels upward from the nodes, breadth first: a cable whose upper end
    # is first reached from its lower one rises a level (a leaf switch
    # above its nodes, a spine above its leaves); cables between elements
    # already placed (a dragonfly's green and black cables between routers)
    # stay where they are. Elements never reached (a dragonfly's groups,
    # joined by its blue cables) go on top.
    level = {("n", k): 0 for k in range(len(nodes))}
    above = {}
    for e in graph:
        above.setdefault(key(e["lower"]), []).append(key(e["upper"]))
    frontier = list(level)
    while frontier:
        following = []
        for v in frontier:
            for u in above.get(v, []):
                if u not in level:
                    level[u] = level[v] + 1
                    following.append(u)
        frontier = following
    top = max(level.values(), default=0)
    for e in graph:
        for end in (e["lower"], e["upper"]):
            level.setdefault(key(end), top + 1)
    switches = [v for v in level if v[0] == "s"]
    if len(nodes) + len(switches) > 4096:
        raise ValueError(f"{len(nodes)} nodes and {len(switches)} switches: too many to draw (at most 4,096); "
                         "the text description holds the counts")
    palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000"]
    fig, ax = plt.subplots(figsize=(min(24, 4 + 0.22 * max(len(nodes), 8)), 4.5 + 0.6 * max(level.values(), default=0)))
    position = {}
    if not switches:  # a torus of nodes: a circle
        for k in range(len(nodes)):
            angle = 2 * math.pi * k / max(len(nodes), 1)
            position[("n", k)] = (math.cos(angle), math.sin(angle))
    else:
        width = max(len(nodes) - 1, 1)
        for k in range(len(nodes)):
            position[("n", k)] = (k, 0.0)
        top = max(level.values())
        below = {}
        for e in graph:
            below.setdefault(key(e["upper"]), []).append(key(e["lower"]))
        for lv in range(1, top + 1):
            here = [v for v in switches if level[v] == lv]

            def centre(v):
                xs = [position[u][0] for u in below.get(v, []) if u in position]
                return sum(xs) / len(xs) if xs else 0.0
            here.sort(key=lambda v: (centre(v), v[1]))
            for i, v in enumerate(here):
                x = width * (i + 0.5) / len(here) if len(here) > 1 else width / 2
                position[v] = (x, lv * max(width / 6, 1.5))
    most = max((e["count"] for e in graph), default=1)
    drawn = set()
    for e in graph:
        a, b = position[key(e["lower"])], position[key(e["upper"])]
        colour = palette[kinds.index(e["kind"]) % len(palette)] if e["kind"] in kinds else "#777"
        ax.plot([a[0], b[0]], [a[1], b[1]], color=colour, linewidth=0.6 + 2.4 * e["count"] / most, alpha=0.75,
                label=e["kind"] if e["kind"] not in drawn else None, zorder=1)
        drawn.add(e["kind"])
    xs = [position[("n", k)][0] for k in range(len(nodes))]
    ys = [position[("n", k)][1] for k in range(len(nodes))]
    ax.scatter(xs, ys, s=28, color="#222", zorder=3, marker="s")
    if switches:
        ax.scatter([position[v][0] for v in switches], [position[v][1] for v in switches], s=60, color="#D55E00",
                   zorder=3)
        counts = {}
        for v in switches:
            counts[level[v]] = counts.get(level[v], 0) + 1
        for v in switches:
            if counts[level[v]] <= 24:
                ax.annotate(v[1], position[v], textcoords="offset points", xytext=(0, 7), ha="center", fontsize=7)
    step = max(1, len(nodes) // 64)
    for k in range(0, len(nodes), step):
        ax.annotate(nodes[k], position[("n", k)], textcoords="offset points", xytext=(0, -9), ha="center", va="top",
                    fontsize=7, rotation=90 if switches else 0)
    cables = sum(c["cables"] for c in description.get("cables", []))
    ax.set_title(f"{description.get('machine', '')}\n{len(nodes)} nodes, {len(switches)} switches or routers, "
                 f"{cables} cables (a line's width: the parallel cables it stands for)", fontsize=9)
    if drawn:
        ax.legend(title="cables", fontsize=8, loc="upper right")
    ax.axis("off")
    ax.margins(0.08)
    save(fig, path)
