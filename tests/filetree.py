"""Reading a database directory whole, for tests that compare two runs byte for byte."""

import os


def files_of(d, suffix="") -> dict:
    """{relative path: bytes} of every file under ``d`` whose name ends with ``suffix``."""
    out = {}
    for root, _, names in os.walk(d):
        for n in names:
            if n.endswith(suffix):
                p = os.path.join(root, n)
                out[os.path.relpath(p, d)] = open(p, "rb").read()
    return out


def side_planes(path, names):
    """(header to write again, {name: plane}, anchors, stored values) of a dtw or draw-value
    file: for tests that change an entry and write the file again with a valid checksum
    (:func:`rewrite_side`)."""
    import numpy as np

    from morris.format.fileformat import LAYOUT_KEYS, TableFile
    from morris.database.folders import beside, stored_values

    stored = stored_values(beside(path, "values"))
    with TableFile(path) as tf:
        header = {k: v for k, v in tf.header.items() if k not in LAYOUT_KEYS}
        planes = {n: tf.distance_all(n, stored).copy() for n in names}
        anchors = np.array(list(tf.anchors), dtype=np.uint32)
    return header, planes, anchors, stored


def rewrite_side(path, header, planes, anchors, stored):
    """Write a dtw or draw-value file from what :func:`side_planes` read (changed or not)."""
    from morris.format.fileformat import write_planes

    write_planes(path, header, planes, anchors, values=stored)


def rewrite_values_header(path, **changes):
    """Write a values file again with header fields changed and a valid checksum (its planes,
    anchors and sections as they were): a forged header, for the tests of verify."""
    import numpy as np

    from morris.format.fileformat import LAYOUT_KEYS, TableFile, write_table

    with TableFile(path) as tf:
        header = {k: v for k, v in tf.header.items() if k not in LAYOUT_KEYS}
        values, dtc = tf.values_all().copy(), tf.dtc_all().copy()
        curse = tf.curse_all().copy() if "curse" in tf.header["sections"] else None
        anchors = np.array(list(tf.anchors), dtype=np.uint32)
    header.update(changes)
    write_table(path, header, values, dtc, anchors, curse)


def forge_header(path, change, whole=False):
    """Change the header of a database file in place, its header checksum made good: ``change``
    takes the header (a dict) and changes it. The new header is padded with spaces to the old
    one's length (every section keeps its offset; the ``generator`` field goes where it takes
    the room); False where it still does not fit. ``whole``: the whole file's digest in the
    trailer made good too (as docs/format.md describes it), so that only the layout can tell."""
    import json
    import struct
    import zlib

    prefix = struct.Struct("<8sIIII")
    data = bytearray(open(path, "rb").read())
    magic, version, hlen, _, rest = prefix.unpack_from(data, 0)
    header = json.loads(bytes(data[prefix.size:prefix.size + hlen]))
    change(header)
    blob = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    if len(blob) > hlen:  # room made by dropping the field no reader needs
        header.pop("generator", None)
        blob = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    if len(blob) > hlen:
        return False
    blob += b" " * (hlen - len(blob))
    data[prefix.size:prefix.size + hlen] = blob
    prefix.pack_into(data, 0, magic, version, hlen, zlib.crc32(blob), rest)
    if whole:
        import hashlib

        from morris.format.fileformat import TRAILER
        data[-TRAILER:-8] = hashlib.blake2b(bytes(data[:-TRAILER]), digest_size=32).digest()
    open(path, "wb").write(bytes(data))
    return True
