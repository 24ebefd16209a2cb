"""The fenced code blocks of an answer's Markdown, found as CommonMark closes them, each given a Copy link."""

from __future__ import annotations

from logitscope.ui.chat.code_blocks import COPY_SCHEME, fenced_blocks, with_copy_links

ANSWER = """Two ways:

```python
def f():
\treturn 1  \n```
Then in a list:

1. Run
   ~~~~
   make ```not the end```
   ~~~
   ~~~~
2. Done
```
left open"""


def test_blocks_are_found_with_their_code_exactly():
    blocks = fenced_blocks(ANSWER)
    assert [(b.language, b.code) for b in blocks] == [
        ("python", "def f():\n\treturn 1  "),
        ("", "make ```not the end```\n~~~"),        # a shorter fence does not close it; the list's indent is not code
        ("", "left open"),
    ]
    assert fenced_blocks("``` has `backticks` in its info\nno block") == []
    assert fenced_blocks("No code at all.") == []


def test_each_block_gets_a_link_above_it():
    shown, codes = with_copy_links("```\nfirst\n```\n```sh\nsecond\n```", "Copy")
    assert shown == f"[Copy]({COPY_SCHEME}:0)\n```\nfirst\n```\n\n[Copy]({COPY_SCHEME}:1)\n```sh\nsecond\n```"
    assert codes == ["first", "second"]
    shown, _ = with_copy_links(ANSWER, "Copy")
    assert f"\n   [Copy]({COPY_SCHEME}:1)\n   ~~~~\n" in shown   # inside the list item, as the fence is
    assert with_copy_links("plain", "Copy") == ("plain", [])
