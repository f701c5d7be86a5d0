"""Panel/Bokeh components over the Nefertiti engine (``nefertiti_core``).

Each component will be a thin view that asks the engine for rules and never decides one itself.
None exist yet: they are to come (see the widgets issue).
"""
