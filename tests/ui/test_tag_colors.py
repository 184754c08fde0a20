"""Event-lane colours (no Qt): every sound label the index stores has its own fixed colour."""

from __future__ import annotations

from harp_desktop.index.ambient_labels import AMBIENT_LABELS
from harp_desktop.ui import colors


def test_room_sounds_and_stored_labels_have_fixed_colours() -> None:
    fixed = {colors.tag_color(label) for label in AMBIENT_LABELS}
    assert len(fixed) == len(AMBIENT_LABELS)  # told apart from each other
    assert fixed.isdisjoint({colors.tag_color(x) for x in ("cough", "sneeze", "laughter", "crying", "wheeze")})
    assert colors.tag_color("throat_clearing") == colors.tag_color("throat clearing")  # the stored spelling
