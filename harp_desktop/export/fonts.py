"""The report font: DejaVu Sans, shipped in resources/fonts (see docs/decisions.md).

reportlab's built-in fonts are Latin-1 only, so "Dr Ψαράς" or "Ирина" would print as
black boxes; DejaVu covers accented Latin, Greek, Cyrillic and more (not CJK).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from harp_desktop.paths import REPO_ROOT

FONT_DIR = REPO_ROOT / "resources" / "fonts"
REGULAR, BOLD = "DejaVuSans", "DejaVuSans-Bold"


class FontError(RuntimeError):
    """The report font is missing or unreadable."""


@lru_cache(maxsize=1)
def register() -> tuple[str, str]:
    """Register the regular and bold faces with reportlab once; returns their names."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    for name in (REGULAR, BOLD):
        path = FONT_DIR / f"{name}.ttf"
        if not path.is_file():
            raise FontError(f"the report font {path} is missing; reinstall HARP Desktop (resources/fonts)")
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except (TTFError, OSError) as exc:
            raise FontError(f"the report font {path} cannot be read ({exc})") from None
    # <b> inside a paragraph picks the bold face.
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, REGULAR)
    addMapping(REGULAR, 1, 1, BOLD)
    return REGULAR, BOLD


@lru_cache(maxsize=1)
def _covered() -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics

    register()
    return frozenset(pdfmetrics.getFont(REGULAR).face.charToGlyph)


def uncovered(text: str) -> list[str]:
    """Characters of ``text`` the font has no glyph for (they would print as empty boxes)."""
    have = _covered()
    return sorted({c for c in text if not c.isspace() and ord(c) not in have})


def font_path(name: str = REGULAR) -> Path:
    return FONT_DIR / f"{name}.ttf"
