"""The rules core: the state, the options, the rules, chance, scoring, and the refusals' wording.

Standard library only; imports nothing from the other layers (``teaching``, ``play``, ``files``)
nor from ``widgets`` (tests/test_layers.py checks this).
"""
