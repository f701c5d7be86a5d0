"""What is computed from one game position, shared by every page that shows it.

A classroom's pages all show the room's table: after a move, each page would compute the same
board data and the same words for the same position. :data:`SHARED_POSITIONS` computes them
once per position (and per language, width, ... as the caller's key says) and hands every page
the same result.

A position is its :class:`~nefertiti_core.engine.state.GameState` object: a history's states are
snapshots, never changed once made (``History.play`` copies), so a value computed from one stays
right for as long as the object lives. The memo holds the state object itself with the value (its
``id`` is never reused while it is kept) and keeps the last :attr:`PositionMemo.size` entries.
Values are shared, not copied: a caller copies what it might change.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class PositionMemo:
    """Values keyed by a position (its state object) and a hashable key; the newest kept."""

    def __init__(self, size: int = 96):
        self.size = size
        self._items: OrderedDict[tuple[int, Hashable], tuple[object, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, state: object, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The value for ``(state, key)``: computed by ``compute()`` the first time, then the
        same value for every caller."""
        full = (id(state), key)
        with self._lock:
            item = self._items.get(full)
            if item is not None and item[0] is state:
                self._items.move_to_end(full)
                self.hits += 1
                return item[1]
        value = compute()  # outside the lock: two pages at once compute it twice, never wrong
        with self._lock:
            self.misses += 1
            self._items[full] = (state, value)
            self._items.move_to_end(full)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


#: The memo shared by the classroom's pages (the board's data, the projector bar's words).
SHARED_POSITIONS = PositionMemo()
