#!/usr/bin/env python3
"""Weighted Matrix Market inputs for the peer comparison: a rows x cols grid
(4-neighbour, integer weights 1..1000) or a pattern file given weights 1..1000."""
import random, sys
def grid(n, path, seed=1):
    rnd = random.Random(seed)
    with open(path, "w") as f:
        m = 2 * n * (n - 1)
        f.write("%%%%MatrixMarket matrix coordinate integer symmetric\n%d %d %d\n" % (n * n, n * n, m))
        out = []
        for r in range(n):
            for c in range(n):
                v = r * n + c + 1
                if c + 1 < n: out.append("%d %d %d\n" % (v + 1, v, rnd.randint(1, 1000)))
                if r + 1 < n: out.append("%d %d %d\n" % (v + n, v, rnd.randint(1, 1000)))
            if len(out) > 1 << 20:
                f.write("".join(out)); out = []
        f.write("".join(out))
def weigh(src, path, seed=1):
    rnd = random.Random(seed)
    with open(src) as f, open(path, "w") as g:
        header = True
        for line in f:
            if line.lstrip("%").startswith("MatrixMarket"):
                g.write("%%MatrixMarket" + line.lstrip("%")[len("MatrixMarket"):].replace("pattern", "integer")); continue
            if line.startswith("%"): continue
            if header:
                g.write(line); header = False; continue
            i, j = line.split()[:2]
            g.write("%s %s %d\n" % (i, j, rnd.randint(1, 1000)))
if __name__ == "__main__":
    if sys.argv[1] == "grid": grid(int(sys.argv[2]), sys.argv[3])
    else: weigh(sys.argv[2], sys.argv[3])
