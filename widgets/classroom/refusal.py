"""Why a room refused an action (:class:`Refusal`: a sentence in the actor's language), and
:func:`retried`, the room's way of making a wish again when another process overtook it.

No Panel here: the room (``room.py``) and its chapters (``chapters.py``) both refuse this way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nefertiti_core.engine.i18n import LANGUAGES, tr


@dataclass(frozen=True)
class Refusal:
    """Why an action was refused: a message id of the classroom catalog and its values."""

    key: str
    params: dict = field(default_factory=dict)
    text_en: str = ""  # an engine message, already worded (English)
    text_by_lang: dict = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        if self.text_by_lang.get(lang):
            return self.text_by_lang[lang]
        if self.key:
            lang = lang if lang in LANGUAGES else "en"
            params = {
                k: tr(lang, f"colour.{v}") if k.startswith("colour") else v
                for k, v in self.params.items()
            }
            return tr(lang, self.key, **params)
        return self.text_en

    def __str__(self) -> str:
        return self.text("en")


def retried(method):
    """A change that is the actor's wish whatever the table shows (a join, a seat, a pause...):
    when another process overtook it (``room.refuse.stale``; the room has been re-read), it is
    made again on the room as it is now (a few times at most), instead of refused."""

    def again(self, *args, **kwargs):
        for _ in range(4):
            result = method(self, *args, **kwargs)
            why = result[2] if isinstance(result, tuple) else result
            if why is None or why.key != "room.refuse.stale":
                return result
        return result

    again.__name__, again.__doc__ = method.__name__, method.__doc__
    return again
