"""A learned Foxtrot player: trained by self-play (``ppo``, extra ``[train]``), played from
plain arrays with numpy only (``policy``; ``learned:PATH`` in tournaments)."""
