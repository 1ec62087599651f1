"""What the HTML report draws of a raSkat signal (``_picture.py``), collected by the check's own walk while
``recspec.trace.enabled()``; bounded whatever the file's length (``recspec.trace``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from recspec.trace import ENVELOPE_BUCKETS, Envelope

__all__ = ["TRACE", "RaskatTrace"]


class RaskatTrace:
    """The waveform (min/max per bucket of samples) and what the header says about its scale."""

    __slots__ = ("bits", "samples", "rate", "threshold", "vref", "wave")

    def __init__(self, samples: Sequence[Any], rate: Any, bits: Any = None, vref: Any = None,
                 threshold: Any = None) -> None:
        ints = [x for x in samples if type(x) is int]
        self.samples = len(samples)
        self.rate = rate if type(rate) is int and rate > 0 else None
        self.bits = bits if type(bits) is int and 1 <= bits <= 16 else None
        self.vref = vref if type(vref) is float and 0 < vref < float("inf") else None
        self.threshold = threshold if type(threshold) is int else None
        self.wave = Envelope(2 * ENVELOPE_BUCKETS)
        if len(ints) == len(samples):
            width = max(1, -(-len(ints) // self.wave.limit))
            if width == 1:
                for x in ints:
                    self.wave.add(x)
            else:  # whole buckets at C speed: the envelope of a long signal without a call per sample
                w = self.wave
                w.width, w.n = width, len(ints)
                for i in range(0, len(ints), width):
                    chunk = ints[i:i + width]
                    w.lo.append(min(chunk))
                    w.hi.append(max(chunk))

    @classmethod
    def of(cls, signal: Any) -> RaskatTrace | None:
        """The trace of a decoded signal (v1/v2 have no ADC fields; v3 has no threshold)."""
        samples = signal.samples
        if not isinstance(samples, tuple):
            return None
        return cls(samples, signal.sample_rate, getattr(signal, "adc_bits", None), getattr(signal, "vref", None),
                   getattr(signal, "threshold", None))


#: The plugin's trace class (``recspec.formats.FormatModule.TRACE``).
TRACE = RaskatTrace
