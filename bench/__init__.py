"""Benchmarks for agent-memory: speed and memory as ratios to a baseline taken in the same run.

``python -m bench`` builds its own synthetic Claude Code history (``bench.synth``), measures
hook latency, ingest throughput, parallel backfill, the session-end hook, the promotion dry
run and the quality figures, and writes ``BENCHMARKS.md``.
"""
