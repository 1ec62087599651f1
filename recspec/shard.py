"""Splitting one `recspec check` run into N shards (`--shard K/N`).

N runs of the same command line with ``--shard 1/N`` .. ``--shard N/N`` check
every file of the unsharded run exactly once, on any machine, operating system
or file system, because the split depends only on each file's *shard key*:

* a file found in a folder named on the command line: its path relative to that
  folder, with ``/`` separators (``2025/06/24/10/20250624101512.sig`` for
  ``recspec check detector/``, wherever ``detector/`` is mounted);
* a file named on the command line: the name as given, with ``/`` separators.

The key is hashed as UTF-8 (undecodable bytes of a POSIX file name kept as they
are, ``surrogateescape``) with BLAKE2b (8-byte digest, read big-endian); the file
belongs to shard ``digest % N + 1``. Every shard still walks all the PATH
arguments (the walk is cheap next to the checking) and keeps its part.

A shard's JSON report carries a ``shard`` section (:func:`shard_section`): which
shard it is, the command line's PATH arguments and check options, how many files
the whole walk found and a digest of it, and the position in the walk of every
file it reports. `recspec merge` uses it to refuse shards of different runs, to
notice a missing or repeated shard, and to put the files back in the unsharded
run's order.
"""

from __future__ import annotations

import argparse
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from .pipeline import walk_files, walk_folders
from .spool import PathList

__all__ = ["Shard", "ShardSelection", "Walked", "WalkedFile", "run_options", "select", "shard_arg", "shard_key",
           "shard_of", "shard_section", "walk"]


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def shard_arg(text: str) -> Shard:
    """``--shard K/N``, with errors that say what is wrong."""
    k_text, sep, n_text = text.strip().partition("/")
    try:
        if not sep:
            raise ValueError
        k, n = int(k_text), int(n_text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected K/N (shard K of N, counted from 1), got {text!r}; example: --shard 2/7") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text}: the number of shards N must be 1 or more")
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(
            f"{text}: shard K must be between 1 and N={n} (shards count from 1: 1/{n} .. {n}/{n})")
    return Shard(k, n)


def shard_key(path: Path | str, root: str | None) -> str:
    """The shard key of a walked file: relative to ``root`` (the folder argument it was found
    under) or, for a file named on the command line (``root`` None), the name as given."""
    p = PurePath(path)
    if root is not None:
        p = p.relative_to(PurePath(root))
    return p.as_posix()


def shard_of(key: str, count: int) -> int:
    """The 1-based shard a key belongs to among ``count``."""
    import hashlib  # here: a run without --shard does not load it (OpenSSL, about 2.5 ms of start-up)

    digest = hashlib.blake2b(key.encode("utf-8", "surrogateescape"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count + 1


@dataclass(frozen=True, slots=True)
class WalkedFile:
    path: Path | str
    named: bool
    position: int  # index in the whole (unsharded) walk
    key: str


def walk(paths: Sequence[str], errors: list[str],
         not_regular: list[tuple[Path, str]] | None = None) -> Iterator[WalkedFile]:
    """The unsharded walk of ``paths`` (the check command's walk, ``pipeline.walk_files``, one PATH
    argument at a time so that each file knows the argument it was found under), with shard keys.
    ``not_regular`` gets each folder member that is not a regular file, with its shard key."""
    position = 0
    for name in paths:
        found: list[Path] = []
        for path, named in walk_files([name], errors, found):
            yield WalkedFile(path, named, position, shard_key(path, None if named else name))
            position += 1
        if not_regular is not None:
            not_regular.extend((p, shard_key(p, name)) for p in found)


class ShardSelection:
    """The files of one shard, and what the shard's report says about the whole walk."""

    def __init__(self, shard: Shard, walked: Iterable[WalkedFile]) -> None:
        import hashlib  # see shard_of

        self.shard = shard
        digest = hashlib.sha256()
        # kept on disk and in an array, not as a list of Paths: a shard may hold a million files
        self.files = PathList()
        self._positions = array("q")
        self.walked = 0
        for wf in walked:
            self.walked += 1
            digest.update(wf.key.encode("utf-8", "surrogateescape") + b"\0")
            if shard_of(wf.key, shard.count) == shard.index:
                self.files.append((wf.path, wf.named))
                self._positions.append(wf.position)
        self.walk_digest = digest.hexdigest()

    def positions_of(self, reported_paths: Iterable[str]) -> list[int]:
        """The walk position of each reported file. Reports keep the files' order and leave out
        unrecognised folder members (and unreadable files), so one pass pairs them up."""
        out: list[int] = []
        files = iter(zip(self.files, self._positions))
        for shown in reported_paths:
            for (path, _), position in files:
                if str(path) == shown:
                    out.append(position)
                    break
            else:  # cannot happen: every report comes from a file of the shard
                raise RuntimeError(f"reported file {shown!r} is not in shard {self.shard}")
        return out


def run_options(args: argparse.Namespace) -> dict[str, Any]:
    """What makes two shards parts of the same run: the PATH arguments and the options that
    change a file's result (not -j or --timeout)."""
    return {"paths": list(args.paths), "format": args.format, "variant": args.variant, "profile": args.profile,
            "cross_check": args.cross_check, "cross_check_limit": args.cross_check_limit}


def shard_section(selection: ShardSelection, args: argparse.Namespace, reported_paths: Iterable[str]) -> dict[str, Any]:
    """The ``shard`` section of a shard's JSON report (schema: report-1.schema.json)."""
    return {"index": selection.shard.index, "count": selection.shard.count, "run": run_options(args),
            "walked_files": selection.walked, "walk_digest": selection.walk_digest,
            "positions": selection.positions_of(reported_paths)}


@dataclass
class Walked:
    """What the walk of one `recspec check` run found and kept (:func:`select`)."""

    #: the files to check, ``(path, named)``, on disk: a run may walk a million files
    files: PathList
    #: how many files the whole walk found: the run's size, the same in every shard
    walked: int
    #: the walk's input errors (a path that does not exist, a folder that cannot be listed), one line each
    errors: list[str]
    #: the folder members of this run's part that are not regular files (not opened)
    not_regular: list[Path]
    #: the shard's selection, for its report's ``shard`` section; None without ``--shard``
    selection: ShardSelection | None


def select(paths: Sequence[str], shard: Shard | None, *, sizes: array[int] | None = None) -> Walked:
    """Walk ``paths`` and keep ``shard``'s part of the walk (all of it when ``shard`` is None); ``sizes``
    gets each kept folder member's size (without a shard only: see ``pipeline.walk_files``)."""
    errors: list[str] = []
    not_regular: list[Path] = []
    if shard is None:
        files = PathList()
        for names, named in walk_folders(paths, errors, not_regular, sizes):
            files.extend_texts(names, named)  # a folder's paths stored at once
        return Walked(files, len(files), errors, not_regular, None)
    found: list[tuple[Path, str]] = []
    selection = ShardSelection(shard, walk(paths, errors, found))
    # a shard lists those of its share of the walk, as it checks its share of the files
    not_regular = [p for p, key in found if shard_of(key, shard.count) == shard.index]
    return Walked(selection.files, selection.walked, errors, not_regular, selection)
