"""Forged database files: every header field of every kind of file changed the ways a file the
toolkit did not write could have it (another type, out of range, contradicting another field or
the board, missing, unknown), each re-signed so that its header checksum and the whole file's
digest hold (tests/filetree.forge_header). tests/test_forged.py plants each one and asks every
consumer to use it.

``cases(header)`` lists (name, change) for one file's header; ``change(header)`` edits it in place.
"""

from __future__ import annotations

import copy

#: header fields whose value is informational only: a change of value (same type) is no forgery
INFORMATIONAL = {"generator"}


def _set(key, value):
    def change(h):
        h[key] = copy.deepcopy(value)
    return change


def _drop(key):
    def change(h):
        h.pop(key, None)
    return change


def _section(name, key, value):
    def change(h):
        if value is _DROP:
            h["sections"][name].pop(key, None)
        else:
            h["sections"][name][key] = copy.deepcopy(value)
    return change


def _nested(outer, key, value):
    def change(h):
        if value is _DROP:
            h[outer].pop(key, None)
        else:
            h[outer][key] = copy.deepcopy(value)
    return change


_DROP = object()


def _other_types(value):
    """Values of other JSON types than ``value`` (a bool is not a number here)."""
    out = []
    if isinstance(value, bool):
        out += [int(value), str(value).lower(), None]
    elif isinstance(value, int):
        out += [str(value), float(value) + 0.5, True, None, [value]]
    elif isinstance(value, str):
        out += [7, None, [value], {"v": value}]
    elif isinstance(value, list):
        out += ["x", {"0": 1}, 3]
    elif isinstance(value, dict):
        out += [[], "x", 1]
    elif value is None:
        out += ["null", False]
    return out


def _out_of_range(key, value, h):
    """Values of the right type that no file of this header can hold."""
    if isinstance(value, bool) or not isinstance(value, int):
        return []
    big = 1 << 40
    out = [-1, big]
    if key == "rank":  # (a rank of -1 may be any pair's: 101 and -101 below cannot)
        out = [big]
    if key in ("m", "o", "hm", "ho"):
        out += [value + 1, 13]
    if key in ("slots", "positions"):
        out += [value + 1, value - 1]
    if key in ("wins", "draws", "losses"):
        out += [value + 1, h.get("positions", 0) + 1]
    if key in ("cursed_wins", "blessed_losses"):
        out += [h.get("draws", 0) + 1]
    if key in ("max_win_dtc", "max_loss_dtc", "max_win_dtw", "max_loss_dtw", "max_draw_distance"):
        out += [70_000]
    if key.endswith("_slot"):
        out += [h.get("slots", 0), h.get("slots", 0) + 5]
    if key == "double_mill_removes":
        out += [0, 3]
    if key == "no_removal_limit":
        out += [0]
    if key == "symmetries":
        out += [value // 2]
    if key == "rank":
        out += [101, -101]
    if key == "max_win_dtw_slot" and value is None:
        out += [0]
    return out


def _contradictions(h):
    """Values of the right type and range that disagree with another field, the board or the
    folder the file lies in."""
    out = []
    sub = h.get("subspace", "")
    out.append(("subspace-other", _set("subspace", "4-3" if sub != "4-3" else "3-4")))
    out.append(("subspace-garbage", _set("subspace", "three-three")))
    out.append(("subspace-placement-name", _set("subspace", sub + "+1+1" if "+" not in sub else sub.split("+")[0])))
    out.append(("phase-other", _set("phase", "movement" if h.get("phase") == "placement" else "placement")))
    out.append(("phase-unknown", _set("phase", "endgame")))
    out.append(("board-other", _set("board", "standard" if h.get("board") != "standard" else "six")))
    out.append(("board-unknown", _set("board", "hexagon")))
    out.append(("ruleset-other", _set("ruleset", "standard-nofly" if h.get("ruleset") != "standard-nofly" else "standard")))
    out.append(("ruleset-path", _set("ruleset", "../" + str(h.get("ruleset")))))
    out.append(("flying-flipped", _set("flying", not h.get("flying"))))
    out.append(("points-reversed", _set("points", list(reversed(h.get("points", []))))))
    out.append(("points-renamed", _set("points", ["z9"] + list(h.get("points", []))[1:])))
    out.append(("points-short", _set("points", list(h.get("points", []))[:-1])))
    out.append(("format-other", _set("format", "syzygy")))
    out.append(("unknown-field", _set("evil", 1)))
    out.append(("distance-other", _set("distance", {"dtc": "dtw", "dtw": "draw", "draw": "dtc",
                                                    "dtc-placement": "dtc"}.get(h.get("distance"), "dtc"))))
    out.append(("kind-other", _set("kind", {"dtw": "draw", "draw": "values"}.get(h.get("kind"), "dtw"))))
    out.append(("kind-unknown", _set("kind", "syzygy")))
    if "no_removal_limit" in h:
        out.append(("limit-other-rules", _set("no_removal_limit", 16 if h["no_removal_limit"] != 16 else 8)))
    out.append(("count-hand-set", _set("count_hand", True)))
    out.append(("count-hand-false", _set("count_hand", False)))
    out.append(("full-board-loss", _set("full_board", "loss")))
    out.append(("full-board-unknown", _set("full_board", "explode")))
    out.append(("place-or-move-set", _set("place_or_move", True)))
    out.append(("endgame-limit-set", _set("endgame_no_removal_limit", 6)))
    if "symmetry_perms" in h:
        perms = h["symmetry_perms"]
        swapped = copy.deepcopy(perms)
        if len(swapped) > 1:
            swapped[1], swapped[2 % len(swapped)] = swapped[2 % len(swapped)], swapped[1]
        out.append(("symmetry-perms-order", _set("symmetry_perms", swapped)))
        broken = copy.deepcopy(perms)
        broken[-1] = [0] * len(broken[-1])
        out.append(("symmetry-perms-not-a-permutation", _set("symmetry_perms", broken)))
        out.append(("symmetry-perms-short", _set("symmetry_perms", perms[:-1])))
    if "hash" in h:
        out.append(("hash-scheme", _nested("hash", "scheme", "anchor-orbit-colex-v2")))
        out.append(("hash-anchor", _nested("hash", "anchor", "mover")))
        out.append(("hash-orbits", _nested("hash", "orbits", h["hash"].get("orbits", 0) + 1)))
        out.append(("hash-orbits-missing", _nested("hash", "orbits", _DROP)))
        out.append(("hash-extra", _nested("hash", "evil", 1)))
    if "wins" in h:
        out.append(("counts-sum", _set("wins", h["wins"] + 1)))
    if "draw_values" in h:
        out.append(("draw-values-keys", _set("draw_values", {"x": 1})))
        out.append(("draw-values-negative", _set("draw_values", {"0": -1})))
        out.append(("draw-values-range", _set("draw_values", {"500": 1})))
        out.append(("draw-values-too-many", _set("draw_values", {"0": h.get("positions", 0) + 1})))
    if "anchor_fence" in h:
        out.append(("fence-strings", _set("anchor_fence", [str(x) for x in h["anchor_fence"]])))
        out.append(("fence-long", _set("anchor_fence", list(h["anchor_fence"]) + [1 << 30])))
        out.append(("fence-empty", _set("anchor_fence", [])))
    for name, sec in h.get("sections", {}).items():
        for key, value in sec.items():
            for k, bad in enumerate(_other_types(value)):
                out.append((f"sections.{name}.{key}-type{k}", _section(name, key, bad)))
            if isinstance(value, int) and not isinstance(value, bool):
                for k, bad in enumerate([-1, value + 1, value + 8, 1 << 40]):
                    out.append((f"sections.{name}.{key}-range{k}", _section(name, key, bad)))
            out.append((f"sections.{name}.{key}-missing", _section(name, key, _DROP)))
        out.append((f"sections.{name}-extra", _section(name, "evil", 1)))
        if name == "anchors":
            out.append(("sections.anchors.dtype", _section(name, "dtype", "uint64le")))
        else:
            out.append((f"sections.{name}.codec-other", _section(name, "codec", "uint16")))
            out.append((f"sections.{name}.codec-unknown", _section(name, "codec", "lz4")))
    out.append(("sections-extra", lambda h: h["sections"].update(evil={"offset": 0})))
    for name in list(h.get("sections", {})):
        out.append((f"sections.{name}-missing", lambda h, name=name: h["sections"].pop(name)))
    if "curse" not in h.get("sections", {}) and "wdl" in h.get("sections", {}):
        out.append(("sections.curse-planted", lambda h: h["sections"].update(
            curse=dict(h["sections"]["wdl"]))))
    return out


def cases(header: dict) -> list[tuple[str, object]]:
    """Every forgery of one file's header: (a name, a function that changes a header)."""
    out = []
    for key, value in header.items():
        if key in ("sections", "file_size"):
            continue
        if key not in INFORMATIONAL:
            out.append((f"{key}-missing", _drop(key)))
        for k, bad in enumerate(_other_types(value)):
            out.append((f"{key}-type{k}", _set(key, bad)))
        for k, bad in enumerate(_out_of_range(key, value, header)):
            out.append((f"{key}-range{k}", _set(key, bad)))
    out += _contradictions(header)
    seen, unique = set(), []
    for name, change in out:
        if name not in seen:
            seen.add(name)
            unique.append((name, change))
    return unique
