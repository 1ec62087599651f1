"""A Matrix-SMT writer with a planted bug: every whole number is stored as an int64.

    python matrix_int64_writer.py CASE.json OUT

Standalone (no recspec import): it writes the document's layout (objects, then
frames with t, states, cmd) from the case, with its own small BSON encoder.
int64 is a number type the format allows (MATRIX-NUM-001), so the file is valid;
but a whole number stored as an integer loses the sign of -0.0, and the file no
longer holds the case it was given. (Values beyond int64 stay doubles: the writer
does not crash.) The smallest failing case: no object, one frame at time 0.0
with no state and one vector command (the first kind), its origin [0, 0, 0] and
its vector [0, 0, -0.0]; the -0.0 is read back as 0.0."""

import json
import struct
import sys
from pathlib import Path


def _number(key: bytes, x: float) -> bytes:
    if isinstance(x, float) and x.is_integer() and -2**63 <= x < 2**63:  # the planted bug
        return b"\x12" + key + struct.pack("<q", int(x))
    return b"\x01" + key + struct.pack("<d", float(x))


def _element(key: str, v) -> bytes:
    k = key.encode("utf-8") + b"\x00"
    if isinstance(v, bool):
        return b"\x08" + k + (b"\x01" if v else b"\x00")
    if isinstance(v, int):
        return b"\x10" + k + struct.pack("<i", v)
    if isinstance(v, float):
        return _number(k, v)
    if isinstance(v, str):
        s = v.encode("utf-8", "surrogatepass") + b"\x00"
        return b"\x02" + k + struct.pack("<i", len(s)) + s
    if isinstance(v, list):
        return b"\x04" + k + _document([(str(i), x) for i, x in enumerate(v)])
    return b"\x03" + k + _document(list(v.items()))


def _document(pairs) -> bytes:
    body = b"".join(_element(k, v) for k, v in pairs) + b"\x00"
    return struct.pack("<i", len(body) + 4) + body


_CMD = {"v": (("vx", "vector", 0), ("vy", "vector", 1), ("vz", "vector", 2)),
        "r": (("ex", "end", 0), ("ey", "end", 1), ("ez", "end", 2)),
        "s": (("sr", "radius", None),),
        "c": (("rx", "rotation", 0), ("ry", "rotation", 1), ("rz", "rotation", 2), ("rw", "rotation", 3),
              ("sx", "half_size", 0), ("sy", "half_size", 1), ("sz", "half_size", 2))}


def _command(c: dict) -> dict:
    out = {"t": c["kind"], "ox": c["origin"][0], "oy": c["origin"][1], "oz": c["origin"][2]}
    for key, field, i in _CMD[c["kind"]]:
        out[key] = c[field] if i is None else c[field][i]
    if "color" in c:
        out.update(zip(("r", "g", "b"), c["color"]))
    if "opacity" in c:
        out["o"] = c["opacity"]
    return out


def write(case: dict, out_path: str) -> None:
    objects = []
    for o in case["objects"]:
        d = {"id": o["id"], "name": o["name"], "color": o["color"], "static": o["static"], "type": o["type"]}
        d.update({k: o[k] for k in ("half_dimentions", "radius", "half_height", "vertices") if k in o})
        objects.append(d)
    frames = [{"states": [{"id": s["id"], "i": s["presence"], "m": s["metadata"], "p": s["position"],
                           "r": s["rotation"]} for s in f["states"]],
               "cmd": [_command(c) for c in f["commands"]], "t": f["time"]} for f in case["frames"]]
    with open(out_path, "wb") as out:
        out.write(_document([("objects", objects), ("frames", frames)]))


def main() -> int:
    write(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
