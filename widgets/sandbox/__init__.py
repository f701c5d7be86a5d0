"""The Sandbox: a whole game in one page (``/tutor``), with its Practice view and its autosave."""
