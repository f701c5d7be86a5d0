"""What serves the pages and keeps their data, with no view in it: the saved-games store, the
upload worker, the garbage-collection pacing, the front page and the framework patches. The
``nefertiti serve`` command itself (``widgets.serve``) sits on top of every app it serves."""
