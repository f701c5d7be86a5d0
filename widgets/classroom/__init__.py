"""The classroom (#16): rooms with one shared table, a teacher's page and the learners' pages.

``room.py`` (no Panel) holds a room's people, seats, game and permissions; ``pages.py`` serves
the teacher's and the learners' pages; ``room_store.py`` keeps rooms in the store.
"""
