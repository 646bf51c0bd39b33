"""Board automorphisms and canonical forms.

The symmetry group of a board is computed, not written down: it is every permutation of the
points that keeps adjacency (joined points stay joined, others stay apart) and maps mills onto
mills. Element 0 is always the identity.

Canonical form (used by the perfect hash, see index.py): of all images of a position under the
group, the one whose *opponent* mask (the side not to move) is the smallest integer, and among
those the one whose mover mask is the smallest integer, where point ``i`` is bit ``i``.
"""

from __future__ import annotations


class SymmetryGroup:
    """The automorphisms of a board, as point permutations and mask transforms."""

    def __init__(self, perms):
        self.perms = tuple(tuple(p) for p in perms)
        self.n = len(self.perms[0])
        nbytes = (self.n + 7) // 8
        self.nbytes = nbytes
        self.byte_images = _byte_images(self.perms, self.n, nbytes)
        self.inverse = tuple(self.perms.index(tuple(_invert(p))) for p in self.perms)

    def __len__(self):
        return len(self.perms)

    def apply(self, s: int, mask: int) -> int:
        """Image of a point mask under symmetry ``s``."""
        out = 0
        for j, tab in enumerate(self.byte_images[s]):
            out |= tab[(mask >> (8 * j)) & 255]
        return out


def _byte_images(perms, n: int, nbytes: int) -> list:
    """byte_images[s][j][v]: the image under symmetry s of the mask whose byte j is v (the
    other bytes 0), as lists of ints. One matrix product for all of them: a new process builds
    these before its first probe."""
    import numpy as np

    bits = (np.arange(256, dtype=np.int64)[:, None] >> np.arange(8)) & 1  # bits[v][b]
    weights = np.zeros((8, len(perms) * nbytes), dtype=np.int64)
    for s, perm in enumerate(perms):
        for j in range(nbytes):
            for b in range(8):
                if 8 * j + b < n:
                    weights[b, s * nbytes + j] = 1 << perm[8 * j + b]
    tabs = (bits @ weights).T.tolist()
    return [tabs[s * nbytes:(s + 1) * nbytes] for s in range(len(perms))]


def _invert(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return inv


def board_automorphisms(board) -> SymmetryGroup:
    """All permutations of the board's points that keep its lines and its mills."""
    n = board.n
    adj = board.adjacency
    mills = set(frozenset(m) for m in board.mills)
    mills_through = [[m for m in mills if p in m] for p in range(n)]
    degree = [bin(a).count("1") for a in adj]
    # Assign points in breadth-first order: a point's image must then be a neighbour of its
    # parent's image, which keeps the search small.
    order = []
    parent = {}
    seen = set()
    for start in range(n):
        if start in seen:
            continue
        queue = [start]
        seen.add(start)
        parent[start] = None
        while queue:
            p = queue.pop(0)
            order.append(p)
            for q in range(n):
                if adj[p] >> q & 1 and q not in seen:
                    seen.add(q)
                    parent[q] = p
                    queue.append(q)
    found = []
    image = [-1] * n

    def extend(k, domain, rng):
        # domain: mask of assigned points; rng: mask of their images
        if k == n:
            found.append(list(image))
            return
        p = order[k]
        up = parent[p]
        candidates = ~rng & ((1 << n) - 1)
        if up is not None:
            candidates &= adj[image[up]]
        near = adj[p] & domain
        mapped = 0
        r = near
        while r:
            low = r & -r
            mapped |= 1 << image[low.bit_length() - 1]
            r ^= low
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            q = low.bit_length() - 1
            # joined to exactly the images of p's assigned neighbours
            if degree[q] != degree[p] or adj[q] & rng != mapped:
                continue
            image[p] = q
            if all(
                any(image[x] < 0 for x in m) or frozenset(image[x] for x in m) in mills
                for m in mills_through[p]
            ):
                extend(k + 1, domain | (1 << p), rng | low)
            image[p] = -1

    extend(0, 0, 0)
    identity = list(range(n))
    found.sort(key=lambda perm: perm != identity)  # identity first, then search order
    return SymmetryGroup(found)
