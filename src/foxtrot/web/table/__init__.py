"""One actor per table and what each seat and spectator may see: seats, pause, computers."""
