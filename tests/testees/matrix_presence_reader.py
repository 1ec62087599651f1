"""A Matrix-SMT reader with a planted bug: a state's ``i`` is read as a flag, so a destroyed object stays.

    python matrix_presence_reader.py FILE

Everything else is recspec's reference decoder. The bug, as a reader that trusts
the key's name has it: a state's ``i`` holds the string ``"i"`` (instantiated) or
``"d"`` (destroyed); the reader takes it for an "is instantiated" flag and tests
its truth, and ``"d"`` is as true as ``"i"``. Every destroyed object is read as
still in the scene. The smallest failing input: the smallest valid recording with
a destroyed state: one object (id 0, named "", a box of half dimensions [1, 1, 1],
colour [0, 0, 0], not static) and one frame at time 0.0 that destroys it
(metadata "", position [0, 0, 0], rotation [0, 0, 0, 1]) and has no debug
command, read with presence "i"."""

import sys
from dataclasses import replace

from _command import reader_main

from recspec.reference.matrix_smt import Presence, decode, to_case


def read(path: str) -> dict:
    with open(path, "rb") as f:
        rec = decode(f.read())
    frames = []
    for frame in rec.frames:
        states = []
        for s in frame.states:
            flag = s.presence.value  # "i" or "d", as stored
            # the planted bug: the stored string tested for truth, as if it were a boolean
            states.append(replace(s, presence=Presence.INSTANTIATED if flag else Presence.DESTROYED))
        frames.append(replace(frame, states=tuple(states)))
    return to_case(replace(rec, frames=tuple(frames)), canonical=True)


if __name__ == "__main__":
    sys.exit(reader_main(lambda: read(sys.argv[1])))
