"""The JSON report: the documented contract (README "The JSON report"; schemas/report-1.schema.json)."""

from __future__ import annotations

import json

from ..report import Report

__all__ = ["render_json"]


def render_json(report: Report, ctx: object = None) -> str:
    return json.dumps(report.to_json(), indent=2, allow_nan=False) + "\n"
