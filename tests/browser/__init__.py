"""The browser tests: a package, so that its conftest and the server tests' have distinct names."""
