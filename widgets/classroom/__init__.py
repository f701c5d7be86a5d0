"""The classroom: rooms with one shared table, a teacher's page and the learners' pages.

With no Panel in them (``tests/test_layers.py`` checks): ``room`` (a room's people, seats, game
and permissions), ``poll`` (the class questions and the class record), ``room_store`` (rooms kept
in the store) and ``feed`` (the change feed between server processes). The pages: ``table``
(what both share: one page's game, its subscription to the room), ``teacher`` (``/classroom``),
``learner`` (``/join``) and ``poll_view`` (the questions' components on both).
"""
