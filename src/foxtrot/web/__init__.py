"""The game server (``foxtrot serve``): tables, protocol, event log, fair deals.

Importing this package imports nothing third-party; ``fair`` needs only the
standard library, so ``foxtrot verify`` works without the ``web`` extra.
"""
