"""Counting all of L1 again on every core: claim keys and candidate pairs made in forked worker processes.

A new set of claim tables, or a reader with none it can use, makes the key of every wording and relates every
candidate pair. Each key and each pair is made on its own, so slices of them made in workers forked from the
counting process (which read what it holds at the fork: nothing is pickled to them) give what one process gives.
Where the system does not fork (macOS, Windows) or there is too little to pay for starting them, it is one process.
Standard library only.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..pool import fork_workers
from ..text import learn_prompt_terms, prompt_terms
from .key import Key, atom_key, learn_keys, unmade
from .relations import Bucket, PairRelation, buckets_of_keys, candidate_pairs, relation


PARALLEL_PAIRS = 100_000  # candidate pairs from which a new set of tables relates them in worker processes
PARALLEL_KEYS = 10_000  # distinct wordings from which a count of all of L1 makes their claim keys in worker processes
_FORKED: Any = None  # what forked workers read: set before they fork, so nothing is pickled to them


def related_pairs(keys: Mapping[str, Key], similarity: float,
                  found_in: Mapping[Bucket, list[str]] | None = None) -> dict[tuple[str, str], PairRelation]:
    """``Relations().extend(keys.values(), similarity).pairs``: every candidate pair of these keys that is more than
    two claims, the candidates related in worker processes when there are many and the system can fork.

    Relating the candidate pairs is most of building the tables anew (~800k pairs, ~10 s of CPU at 100k mixed
    atoms); each pair is related on its own, so the pairs split across cores give the same relations.
    """
    # in the order buckets make them: related in that order, keys stay warm in the CPU's caches
    found = list(dict.fromkeys(candidate_pairs(buckets_of_keys(keys) if found_in is None else found_in)))
    workers = fork_workers(len(found), PARALLEL_PAIRS)
    parts = _in_workers(_relate_slice, (found, keys, similarity), len(found), workers) if workers > 1 else None
    if parts is None:  # too few pairs, or no workers after all: related here
        return {pair: rel for pair in found if (rel := relation(keys[pair[0]], keys[pair[1]], similarity)) is not None}
    return {found[at]: rel for part in parts for at, rel in part}


def make_keys(atoms: list[tuple[int, dict[str, Any]]], terms: bool = False) -> None:
    """Make the claim keys of these atoms' wordings ahead of ``atom_key``, in worker processes when there are many
    and the system can fork (counting all of L1 again: a new set of tables, a pass after an upgrade); else leave
    them to ``atom_key``. Keys are most of that count after relating (~7 s of CPU at 100k mixed atoms), and the
    index's workers, forked later, find them made. ``terms``: the ``prompt_terms`` of each wording too, for an index
    filled after this (a new claim key's row holds those of its first wording: ~40 µs each, made one after the
    other where the index is filled)."""
    wordings = unmade(list(dict.fromkeys((str(atom.get("text", "")), str(atom.get("reverses") or "")) for _o, atom in atoms)))
    if not wordings:
        return  # every key made already (``reindex`` makes them all before it forks the index)
    workers = fork_workers(len(wordings), PARALLEL_KEYS)
    parts = _in_workers(_keys_slice, (wordings, terms), len(wordings), workers) if workers > 1 else None
    if parts is None:
        return  # too few, or no workers after all: ``atom_key`` makes each key when it is asked for
    results = [result for part in parts for result in part]
    learn_keys({wording: Key(negated, tokens) for wording, (negated, tokens, _terms) in zip(wordings, results)})
    if terms:
        learn_prompt_terms({text: said for (text, _reverses), (_negated, _tokens, said) in zip(wordings, results)})


# how long the workers may take, beyond a minute (``_TIMEOUT_FLOOR``), per item: hundreds of times what an item takes (keys ~100 µs,
# pairs ~10 µs); a worker killed (out of memory) leaves its slice undone and the pool waiting for it for ever
SECONDS_AN_ITEM = 0.002
_TIMEOUT_FLOOR = 60.0


def _in_workers(work: Any, data: Any, count: int, workers: int) -> list[Any] | None:
    """``work`` over slices (start, end) of ``count`` items of ``data``, in forked worker processes that read
    ``data`` as it was at the fork; each slice's result, in order. None when the workers could not be started (no
    fork to be had) or did not finish in time: the caller does the work itself, so the count still ends."""
    global _FORKED
    import multiprocessing

    _FORKED = data
    try:
        step = -(-count // (workers * 8))
        with multiprocessing.get_context("fork").Pool(workers) as pool:  # leaving it stops every worker
            pending = pool.map_async(work, [(start, min(start + step, count)) for start in range(0, count, step)])
            return list(pending.get(timeout=_TIMEOUT_FLOOR + count * SECONDS_AN_ITEM))
    except (OSError, multiprocessing.TimeoutError):
        return None
    finally:
        _FORKED = None


def _keys_slice(bounds: tuple[int, int]) -> list[tuple[bool, tuple[str, ...], tuple[str, ...]]]:
    """In a forked worker: the claim keys of wordings ``bounds`` (start, end), as (negated, tokens, and the
    wording's prompt terms where they were asked for)."""
    wordings, terms = _FORKED
    out = []
    for text, reverses in wordings[bounds[0]:bounds[1]]:
        key = atom_key({"text": text, "reverses": reverses})
        out.append((key.negated, key.tokens, tuple(prompt_terms(text)) if terms else ()))
    return out


def _relate_slice(bounds: tuple[int, int]) -> list[tuple[int, PairRelation]]:
    """In a forked worker: the relations of candidate pairs ``bounds`` (start, end) that are more than two claims."""
    found, keys, similarity = _FORKED
    out = []
    for at in range(*bounds):
        a, b = found[at]
        rel = relation(keys[a], keys[b], similarity)
        if rel is not None:
            out.append((at, rel))
    return out
