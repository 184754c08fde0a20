"""The desktop GUI (PySide6 + pyqtgraph): a thin shell over harp_desktop.api.

Qt is imported only inside this package. Widgets hold no indexing or answering logic:
long work runs in ``workers`` (QThreadPool) and calls the same ``Library`` the CLI uses.
"""

from harp_desktop.ui.qt_guard import immortalize_singletons

immortalize_singletons()  # before any signal is emitted: see qt_guard.py
