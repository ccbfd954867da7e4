"""The 50-space scoreboard (R-BASE-10), which The Messages reads for dark spaces."""

SPACES = 50


def space(total: int) -> int:
    """The space a figure with `total` points stands on: spaces 0..49, passing 49 wraps."""
    return total % SPACES


def is_dark(total: int) -> bool:
    """Dark spaces are 0, 5, …, 45: a figure at `total` stands on one iff total % 5 == 0."""
    return space(total) % 5 == 0
