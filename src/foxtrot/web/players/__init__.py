"""People: accounts (passkeys, sessions), ratings (openskill), rated tables, profiles."""
