"""Team memory: one person's atoms exported as shareable rows (``export``), and the evidence gate over many
people's exports (``gate``: SQLite, DuckDB or Spark) staging proposals for the repository's files (``stage``).

Nothing here is on a hook's path. Exports carry no quote, path or user name; people and sessions are salted
pseudonyms (``identity``) whose key never leaves the machine.
"""
