"""What the HTML report draws of a toy file (``_picture.py``): the records' values, collected by the check's
walk while ``recspec.trace.enabled()``; bounded whatever the count (``recspec.trace.Envelope``)."""

from __future__ import annotations

from recspec.trace import Envelope

__all__ = ["TRACE", "ToyTrace"]


class ToyTrace:
    """Each record's value, as a min/max envelope over the record index."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values = Envelope()


#: The plugin's trace class (``recspec.formats.FormatModule.TRACE``).
TRACE = ToyTrace
