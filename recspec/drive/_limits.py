"""The limits of ``recspec drive`` that its command line shows, kept apart from the modules that
enforce them so that building the parser (for every command) imports no ``subprocess``."""

from __future__ import annotations

__all__ = ["DEFAULT_TIMEOUT"]

#: Seconds one run of a testee may take (``--timeout``); past it the testee is killed: verdict ``timeout``.
DEFAULT_TIMEOUT = 10.0
