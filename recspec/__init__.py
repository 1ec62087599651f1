"""recspec: conformance, round-trip and fuzz testing for recording formats.

The command line is ``recspec`` (see ``recspec --help``). The library surface:

* ``recspec.check(source, *, format=None, variant=None, profile=None)`` -> ``FileReport``
  and ``recspec.dump(source, out=None, ...)``, for a path, bytes or a binary file
  object (``recspec.api``);
* ``recspec.formats``: the format registry (``FORMATS``) and the contract every
  format fulfils;

* ``recspec.reference.<format>``: hand-written reference encoders and decoders;
* ``recspec.conformance``: rules, the checker and the cross-check against the
  Kaitai parsers;
* ``recspec.strategies``: Hypothesis strategies for every format and variant;
* ``recspec.report``: findings, rules, verdicts and the JSON report contract;
* ``recspec.errors``: the one error hierarchy.
"""

from __future__ import annotations

from typing import Any

from ._version import __version__

__all__ = ["__version__", "check", "dump"]


def __getattr__(name: str) -> Any:
    # check and dump load the pipeline on first use, so `import recspec` stays cheap
    if name in ("check", "dump"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'recspec' has no attribute {name!r}")
