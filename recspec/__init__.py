"""recspec: conformance, round-trip and fuzz testing for recording formats.

The command line is ``recspec`` (see ``recspec --help``). The library surface:

* ``recspec.reference.<format>``: hand-written reference encoders and decoders;
* ``recspec.conformance``: rules, the checker and the cross-check against the
  Kaitai parsers;
* ``recspec.strategies``: Hypothesis strategies for every format and variant;
* ``recspec.report``: findings, rules, verdicts and the JSON report contract;
* ``recspec.errors``: the one error hierarchy.
"""

__version__ = "0.1.0"
