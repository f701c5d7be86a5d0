"""Play and measure: bots, hints, odds, simulations, tournaments, the OpenSpiel adapter.

Imports ``engine`` and ``teaching`` only (tests/test_layers.py checks this).
"""
