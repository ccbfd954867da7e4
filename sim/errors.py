"""Exceptions. Every message is one line that names where the problem is."""


class CarcsimError(Exception):
    """Base of every carcsim error."""


class InputError(CarcsimError, ValueError):
    """Bad input (tile file, script, config, option): names the file and field."""


class IllegalMove(CarcsimError, ValueError):
    """A choice that is not among the legal choices of the current decision."""


class CoreError(CarcsimError):
    """The C core refused a call; the message names the call and the code."""


def check_keys(table: dict, allowed, where: str) -> None:
    """Raise InputError `where.key: unknown key: expected …` for a key not allowed."""
    for key in table:
        if key not in allowed:
            raise InputError(f"{where}.{key}: unknown key: expected one of {', '.join(sorted(allowed))}")
