"""The fenced code blocks of an answer's Markdown, each given its own Copy link (Qt-free text work).

`with_copy_links` puts a line with a link (`logitscope-copy:N`) above each fenced block before the Markdown is
rendered; the answer view copies block N's code, exactly as the answer wrote it (tabs and trailing spaces
kept, without the fences), when the link is clicked or activated from the keyboard (Tab to it, Enter). The
code is taken from the Markdown, not from the rendered document, which turns tabs into spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COPY_SCHEME = "logitscope-copy"
_OPENING = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass(frozen=True)
class CodeBlock:
    line: int          # index of its opening fence among the Markdown's lines
    indent: str        # the spaces before the fence (a block inside a list item is indented)
    language: str
    code: str


def fenced_blocks(markdown: str) -> list[CodeBlock]:
    """Every fenced code block (``` or ~~~, CommonMark's rules for closing it); one left open runs to the end."""
    lines = markdown.split("\n")
    blocks: list[CodeBlock] = []
    i = 0
    while i < len(lines):
        opening = _OPENING.match(lines[i])
        if opening is None or (opening["fence"][0] == "`" and "`" in opening["info"]):
            i += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        closing = re.compile(rf"^ *{re.escape(fence[0])}{{{len(fence)},}} *$")
        end = next((k for k in range(i + 1, len(lines)) if closing.match(lines[k])), len(lines))
        code = "\n".join(_dedent(line, len(indent)) for line in lines[i + 1:end])
        blocks.append(CodeBlock(i, indent, opening["info"].strip().split(" ")[0], code))
        i = end + 1
    return blocks


def _dedent(line: str, n: int) -> str:
    """A code line without up to `n` of its leading spaces (as many as its fence was indented)."""
    stripped = len(line) - len(line.lstrip(" "))
    return line[min(n, stripped):]


def with_copy_links(markdown: str, label: str) -> tuple[str, list[str]]:
    """The Markdown with a `label` link above each fenced block, and each block's code (by link number)."""
    blocks = fenced_blocks(markdown)
    if not blocks:
        return markdown, []
    lines = markdown.split("\n")
    for n, block in reversed(list(enumerate(blocks))):
        link = f"{block.indent}[{label}]({COPY_SCHEME}:{n})"
        lines[block.line:block.line] = ["", link] if block.line > 0 else [link]
    return "\n".join(lines), [block.code for block in blocks]
