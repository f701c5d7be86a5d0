"""Words for people: explanations of events and options, the status, rule texts, coverage.

Imports the rules core (``engine``) only (tests/test_layers.py checks this).
"""
