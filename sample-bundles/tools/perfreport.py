"""`perf report --stdio` text computed from `perf script` text.

Used by the sample-bundle generators: a bundle needs the collector's two `perf report`
artifacts next to its `perf script`, and a sample whose `perf script` was derived from a real
capture has no `perf.data` to run `perf report` on. This module renders the same samples in
perf 6.1's `--stdio` layout, following tools/perf/ui/stdio/hist.c: callee-ordered graphs for
`--no-children`, caller-ordered graphs with Children/Self columns otherwise, the 0.5 % graph
threshold, the `---` single-root form, the `|--N%--` branch form, ties ordered by the sort
keys. `check()` compares the rendering with a real perf 6.1 report of the same data.
"""

import re

SAMPLE_HEAD = re.compile(
    r"^(?P<comm>.+?)\s+(?P<pid>\d+)(?:/\d+)?\s+\[(?P<cpu>\d+)\]\s+(?P<time>[\d.]+):\s+"
    r"(?P<period>\d+)\s+(?P<event>\S+?):?\s*$"
)
FRAME = re.compile(r"^\s+(?P<ip>[0-9a-f]+) (?P<sym>.+?) \((?P<dso>[^()]*)\)$")

TIPS = [
    "For a higher level overview, try: perf report --sort comm,dso",
    "Use parent filter to see specific call path: perf report -p <regex>",
]


class Frame(tuple):
    """(ip, function, dso path, key): the key orders siblings as perf's callchain tree does."""

    def __new__(cls, ip, sym, dso, key):
        return tuple.__new__(cls, (ip, sym, dso))

    def __init__(self, ip, sym, dso, key):
        self.key = key


def parse_script(text):
    """Samples of a `perf script` output: dicts with comm, period, event and frames (leaf
    first), each a Frame (ip, function, dso path). The kernel's DSO is created before any
    other (perf builds the kernel maps first), user DSOs in order of first appearance."""
    out = []
    dso_rank = {"[kernel.kallsyms]": 0}
    for block in text.split("\n\n"):
        lines = [l for l in block.split("\n") if l.strip()]
        if not lines:
            continue
        m = SAMPLE_HEAD.match(lines[0])
        if not m:
            continue
        frames = []
        for l in lines[1:]:
            f = FRAME.match(l)
            if not f:
                continue
            sym = f.group("sym")
            ip = int(f.group("ip"), 16)
            start = ip
            off = re.search(r"\+0x([0-9a-f]+)$", sym)
            if sym != "[unknown]" and off:
                start = ip - int(off.group(1), 16)
                sym = sym[: off.start()]
            dso = f.group("dso")
            if dso not in dso_rank:
                dso_rank[dso] = len(dso_rank)
            frames.append(Frame(ip, sym, dso, (dso_rank[dso], start)))
        out.append(
            {
                "comm": m.group("comm"),
                "period": int(m.group("period")),
                "event": m.group("event").rstrip(":"),
                "frames": frames,
            }
        )
    return out


def short_dso(path):
    m = re.match(r"^/tmp/perf-(\d+)\.map$", path)
    if m:
        return "[JIT] tid " + m.group(1)
    if path.startswith("["):
        return path
    return path.rsplit("/", 1)[-1]


def is_kernel(path):
    return path == "[kernel.kallsyms]" or (
        path.startswith("[") and path.endswith("]") and path not in ("[unknown]",)
        and not path.startswith("[JIT]")
    )


def entry_sym(frame):
    ip, sym, _ = frame
    return sym if sym != "[unknown]" else "0x%016x" % ip


def chain_sym(frame):
    ip, sym, _ = frame
    if sym != "[unknown]":
        return sym
    return "0x%x" % ip if ip else "0"


class Node:
    """A run of callchain entries without branching: `val` holds (name, key) pairs; the key
    of the first orders siblings (perf keeps them in an rb-tree ordered by DSO, then symbol
    address, and visits it from the highest)."""

    __slots__ = ("val", "hit", "children")

    def __init__(self, val):
        self.val = val
        self.hit = 0
        self.children = []

    def cumul(self):
        return self.hit + sum(c.cumul() for c in self.children)

    def names(self):
        return [v[0] for v in self.val]


def insert(root, chain, period):
    """Radix insertion of `chain` ((name, key) pairs) into the children of `root`."""
    node = root
    rest = list(chain)
    while True:
        if not rest:
            node.hit += period
            return
        for c in node.children:
            if c.val[0][0] != rest[0][0]:
                continue
            n = 0
            while n < len(c.val) and n < len(rest) and c.val[n][0] == rest[n][0]:
                n += 1
            if n < len(c.val):
                tail = Node(c.val[n:])
                tail.hit = c.hit
                tail.children = c.children
                c.val = c.val[:n]
                c.hit = 0
                c.children = [tail]
            node = c
            rest = rest[n:]
            break
        else:
            new = Node(rest)
            new.hit = period
            node.children.append(new)
            return


def sorted_children(node, min_hit):
    kept = [c for c in node.children if c.cumul() >= min_hit]
    kept.sort(key=lambda c: c.val[0][1], reverse=True)
    # Stable by value: ties keep the tree's order.
    return sorted(kept, key=lambda c: -c.cumul())


def margin(left):
    return " " * 12 + " " * left


def fmt_pct(v, total):
    return "%.2f%%" % (v * 100.0 / total)


def graph(root, total, min_hit):
    """Lines of callchain__fprintf_graph for one entry's chain tree."""
    out = []
    left = 0
    kids = sorted_children(root, min_hit)
    if len(kids) == 1:
        c = kids[0]
        for i, name in enumerate(c.names()):
            if i == 0:
                out.append(margin(left) + "|")
                out.append(margin(left) + "---" + name)
                left += 3
            else:
                out.append(margin(left) + name)
        root = c
    out.extend(_graph(root, total, min_hit, 1, 1, left))
    if out:
        out.append("")
    return out


def _graph(node, total, min_hit, depth, depth_mask, left):
    out = []
    kids = sorted_children(node, min_hit)
    new_mask = depth_mask
    for idx, c in enumerate(kids):
        last = idx == len(kids) - 1
        if last:
            new_mask &= ~(1 << (depth - 1))
        line = margin(left)
        for i in range(depth):
            line += "|          " if depth_mask & (1 << i) else "           "
        out.append(line)
        for k, name in enumerate(c.names()):
            line = margin(left)
            for i in range(depth):
                line += "|" if new_mask & (1 << i) else " "
                if k == 0 and i == depth - 1:
                    line += "--" + fmt_pct(c.cumul(), total) + "--"
                else:
                    line += "          "
            out.append(line + name)
        out.extend(_graph(c, total, min_hit, depth + 1, new_mask | (1 << depth), left))
    return out


def header(samples, event, total):
    return [
        "# To display the perf.data header info, please use --header/--header-only options.",
        "#",
        "#",
        "# Total Lost Samples: 0",
        "#",
        "# Samples: %d  of event '%s'" % (samples, event),
        "# Event count (approx.): %d" % total,
        "#",
    ]


def report_no_children_comm_dso_sym(samples, tip=0):
    """`perf report --stdio --no-children --sort comm,dso,symbol`."""
    event = samples[0]["event"]
    total = sum(s["period"] for s in samples)
    entries = {}
    for s in samples:
        leaf = s["frames"][0]
        key = (s["comm"], short_dso(leaf[2]), entry_sym(leaf), is_kernel(leaf[2]))
        e = entries.setdefault(key, {"period": 0, "root": Node([])})
        e["period"] += s["period"]
        insert(e["root"], [(chain_sym(f), f.key) for f in s["frames"]], s["period"])
    order = sorted(entries.items(), key=lambda kv: (-kv[1]["period"], kv[0][0], kv[0][1], kv[0][2]))
    wc = max([len("Command")] + [len(k[0]) for k in entries])
    wd = max([len("Shared Object")] + [len(k[1]) for k in entries])
    ws = max([len("Symbol")] + [len(k[2]) + 4 for k in entries])
    lines = header(len(samples), event, total)
    lines.append(
        "# Overhead  %s  %s  %s  IPC   [IPC Coverage]"
        % ("Command".ljust(wc), "Shared Object".ljust(wd), "Symbol".ljust(ws))
    )
    lines.append("# ........  %s  %s  %s  ...................." % ("." * wc, "." * wd, "." * ws))
    lines.append("#")
    min_hit = total * 0.005
    for (comm, dso, sym, kern), e in order:
        lines.append(
            "%9.2f%%  %s  %s  %s  -      -            "
            % (e["period"] * 100.0 / total, comm.ljust(wc), dso.ljust(wd),
               (("[k] " if kern else "[.] ") + sym).ljust(ws))
        )
        lines.extend(graph(e["root"], total, min_hit))
    lines += ["", "", "#", "# (Tip: %s)" % TIPS[tip], "#", ""]
    return "\n".join(lines)


def report_children_dso(samples, tip=1):
    """`perf report --stdio --sort dso` (children mode: callchains in caller order)."""
    event = samples[0]["event"]
    total = sum(s["period"] for s in samples)
    entries = {}
    for s in samples:
        caller = list(reversed(s["frames"]))  # root first
        names = [(chain_sym(f), f.key) for f in caller]
        leaf_dso = short_dso(s["frames"][0][2])
        seen = set()
        # The leaf's own entry, with the whole chain.
        e = entries.setdefault(leaf_dso, {"self": 0, "children": 0, "root": Node([])})
        e["self"] += s["period"]
        e["children"] += s["period"]
        insert(e["root"], names, s["period"])
        seen.add(leaf_dso)
        # Every other DSO on the stack once, from its root-most frame to the leaf.
        for i, f in enumerate(caller):
            d = short_dso(f[2])
            if d in seen:
                continue
            seen.add(d)
            e = entries.setdefault(d, {"self": 0, "children": 0, "root": Node([])})
            e["children"] += s["period"]
            insert(e["root"], names[i:], s["period"])
    order = sorted(entries.items(), key=lambda kv: (-kv[1]["children"], kv[1]["self"], kv[0]))
    wd = max([len("Shared Object")] + [len(k) for k in entries])
    lines = header(len(samples), event, total)
    lines.append("# Children      Self  %s" % "Shared Object".ljust(wd))
    lines.append("# ........  ........  %s" % ("." * wd))
    lines.append("#")
    min_hit = total * 0.005
    for dso, e in order:
        lines.append(
            "%9.2f%%  %7.2f%%  %s"
            % (e["children"] * 100.0 / total, e["self"] * 100.0 / total, dso.ljust(wd))
        )
        lines.extend(graph(e["root"], total, min_hit))
    lines += ["", "", "#", "# (Tip: %s)" % TIPS[tip], "#", ""]
    return "\n".join(lines)


def check(script_path, report_path, kind):
    """Renders `script_path` and diffs it with the real report: returns differing line pairs."""
    samples = parse_script(open(script_path).read())
    mine = (report_no_children_comm_dso_sym if kind == "comm" else report_children_dso)(samples)
    real = open(report_path).read()
    a, b = mine.split("\n"), real.split("\n")
    diffs = [(i + 1, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return diffs, len(a), len(b)
