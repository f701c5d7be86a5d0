"""What is read from and written to files: positions (scenario), their exercises and practice,
saved games (history, whose seats name bots) and staged positions, and the YAML subset.

The top layer: may import ``engine``, ``teaching`` and ``play`` (tests/test_layers.py checks this).
"""
