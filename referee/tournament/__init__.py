"""Many matches: the config, formats (which matches to play), executors (where
to play them), the runner, the results folder, standings and ratings.

This package builds on :mod:`referee.match` and never reaches the faces above it.
"""
