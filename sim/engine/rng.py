"""Seeded random streams, split by purpose (ARCHITECTURE.md: determinism).

SplitMix64 in plain integers: the same numbers on every machine and Python version
(the standard library only guarantees `random()`, not `shuffle`), trivially mirrored
in C, and a stream's whole state is one int, so clone and pickle are exact.
"""

from __future__ import annotations

import hashlib

_MASK = (1 << 64) - 1


def derive(seed: int, purpose: str) -> int:
    """The 64-bit seed of the stream for `purpose` ("tiles", "seat0", …) of a game."""
    digest = hashlib.blake2b(f"{seed}/{purpose}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


class Stream:
    """One random stream. `below(n)` is uniform on 0..n-1 (to within 2**-64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"below({n}): expected a positive bound")
        return (self.next_u64() * n) >> 64

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def random(self) -> float:
        return (self.next_u64() >> 11) / float(1 << 53)

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> Stream:
        return Stream(self.state)

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and other.state == self.state

    def __repr__(self) -> str:
        return f"Stream(state={self.state:#x})"
