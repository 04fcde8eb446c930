"""The deal of the day: one committed deck per table size and take rule, the same for everyone."""
