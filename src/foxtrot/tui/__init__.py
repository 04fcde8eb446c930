"""The terminal game (Textual): ``foxtrot play`` and the interactive ``foxtrot replay``.

- ``session``: a match being played (state, seats, bots, autosave), no Textual;
- ``view``: the pieces of the table as Rich renderables, from an observation;
- ``app`` (the flow of a match), ``table``, ``setup``, ``screens``: the Textual app;
- ``replay``: the step-by-step viewer of a record;
- ``launch``: what the command line calls.
"""
