"""The pages' templates, scripts and styles (package data), and inlining them.

Every page is one self-contained file: its data, script and styles are
inlined at write time, so it needs no network and no build step and opens
from a file:// URL.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

__all__ = ["asset", "page", "json_for_script"]


def asset(name: str) -> str:
    """The text of ``referee/pages/static/<name>``."""
    return resources.files("referee.pages").joinpath("static", name).read_text(encoding="utf-8")


def json_for_script(data: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>``, ``<!--`` or line separators
    can come out of a bot's name or a fault message quoting its output."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def page(title: str, body: str, *, styles: list[str], scripts: list[str], data: Any = None) -> str:
    """A whole HTML document: ``body`` (trusted markup), the named styles and scripts
    inlined, and ``data`` as JSON in ``<script id="page-data">``."""
    css = "\n".join(asset(s) for s in styles)
    js = "\n".join(asset(s) for s in scripts)
    data_tag = ("<script type=\"application/json\" id=\"page-data\">" + json_for_script(data) + "</script>\n"
                if data is not None else "")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(title)}</title>\n<style>\n{css}\n</style>\n</head>\n<body>\n{body}\n"
            f"{data_tag}<script>\n{js}\n</script>\n</body>\n</html>\n")
