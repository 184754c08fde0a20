"""Work around reference-count bugs of the installed PySide6 (6.12.0) on CPython 3.11.

Measured in this environment: every ``SignalInstance.emit()`` called from Python drops
one reference to ``True`` (it returns Py_True without a new reference), and
``QTimer.singleShot(ms, callable)`` drops one to ``None``. CPython 3.11 counts references
to these singletons like any object's, so after a few thousand emits (pyqtgraph emits on
every mouse move; the player 30 times a second) the interpreter aborts with
"Fatal Python error: bool_dealloc" or "none_dealloc". CPython 3.12 made the singletons
immortal; this does the same by hand, once: their counts get a 2**40 head start, which
the leaks cannot use up (they are static objects, never freed either way).
"""

from __future__ import annotations

import ctypes
import sys

HEADROOM = 1 << 40
_applied = False


def immortalize_singletons() -> bool:
    """Give None / True / False a huge reference count. Returns whether it was applied."""
    global _applied
    if _applied:
        return True
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12) or hasattr(sys, "getobjects"):
        return False  # immortal already (3.12+), or a layout this does not know (trace-refs debug build)
    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += HEADROOM  # ob_refcnt is the first field
    _applied = True
    return True
