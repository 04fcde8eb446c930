"""The foxtrot command line."""
