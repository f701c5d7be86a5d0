"""A text from the message catalogs that stays its English ``str`` but can be said again in
another language: :class:`Said` (a catalog key and its parameters) and :class:`Worded` (a text
already worded in each language).

Apart from :mod:`.said`, which uses them for a file's errors, so that the engine's lowest modules
(the move notation: :mod:`.options`, :mod:`.state`, :mod:`.steps`) can raise their errors in
catalog words without importing what :mod:`.said` needs (the explainer of a refused option).
"""

from __future__ import annotations

from .i18n import DEFAULT_LANGUAGE, catalog


class Said(str):
    """The English text of catalog message ``key`` filled in with ``params``; see :func:`in_lang`."""

    key: str
    params: dict

    def __new__(cls, key: str, **params):
        self = super().__new__(cls, _word(DEFAULT_LANGUAGE, key, params))
        self.key, self.params = key, params
        return self

    def __reduce__(self):  # pickled and copied as the message, not as its English text
        return (_said, (self.key, self.params))

    def in_lang(self, lang: str) -> str:
        return _word(lang, self.key, self.params)


class Worded(str):
    """A text already worded in each language (``{lang: text}``); its English is the str."""

    texts: dict

    def __new__(cls, texts: dict):
        self = super().__new__(cls, texts[DEFAULT_LANGUAGE])
        self.texts = dict(texts)
        return self

    def __reduce__(self):
        return (Worded, (self.texts,))

    def in_lang(self, lang: str) -> str:
        return self.texts.get(lang) or str(self)


def _said(key: str, params: dict) -> Said:
    return Said(key, **params)


def in_lang(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it is a :class:`Said` or :class:`Worded`; any other text as it is (English)."""
    return text.in_lang(lang) if isinstance(text, (Said, Worded)) else str(text)


def _word(lang: str, key: str, params: dict) -> str:
    """As :func:`.i18n.tr` does, but any parameter name is allowed (``lang`` too)."""
    template = catalog(lang).get(key) or catalog(DEFAULT_LANGUAGE)[key]
    return template.format(**{name: in_lang(value, lang) for name, value in params.items()})
