"""Many processes: the wake-up bus (in memory, Redis) and the table leases."""
