"""Small text helpers shared by the parsers."""


def split_top(text: str, sep: str) -> list[str]:
    """Split on `sep` outside parentheses: `a(b,c),d` -> [`a(b,c)`, `d`]."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out
