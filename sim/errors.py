"""Exceptions. Every message is one line that names where the problem is."""


class CarcsimError(Exception):
    """Base of every carcsim error."""


class InputError(CarcsimError, ValueError):
    """Bad input (tile file, script, config, option): names the file and field."""


class IllegalMove(CarcsimError, ValueError):
    """A choice that is not among the legal choices of the current decision."""


class StrategyError(InputError, IllegalMove):
    """A Python strategy raised, or answered a decision with a choice it does not offer:
    the message names the seed, the seat, the strategy and the decision."""


class CoreError(CarcsimError):
    """The C core refused a call; the message names the call and the code. Its subclasses,
    one per C error code, are in sim/core/__init__.py (`ERRORS`). At the command line it
    is a bug (the input should have been refused before it reached C): one line, exit 3."""


QUOTE_LIMIT = 200  # characters of the input an error line quotes (a 100 KB value is no message)


def quote(value, limit: int = QUOTE_LIMIT) -> str:
    """repr(value) for an error line, cut to `limit` characters with its length said."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def one_line(text: str) -> str:
    """`text` with every character that is not printable (a line break, a tab, a control
    character) written as its escape: an error line stays one line whatever a path or a
    value it quotes holds."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def check_keys(table: dict, allowed, where: str) -> None:
    """Raise InputError for a key not allowed: `FILE: section.key: unknown key: …`.

    `where` is `FILE: section` for a table inside a file, or `FILE:` for the file's top
    level (which gives `FILE: key`, never `FILE.toml.key`)."""
    for key in table:
        if key not in allowed:
            name = f"{where} {key}" if where.endswith(":") else f"{where}.{key}"
            raise InputError(f"{name}: unknown key: expected one of {', '.join(sorted(allowed))}")
