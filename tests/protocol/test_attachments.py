"""How a message with its text files becomes the text the model reads (one function for every caller)."""

from __future__ import annotations

from logitscope.protocol.attachments import Attachment, attachments_of, render_attachment, render_message


def test_a_message_without_files_is_its_text_unchanged():
    assert render_message("  Hello\n") == "  Hello\n"


def test_each_file_follows_the_typed_text_in_a_fenced_block_headed_by_its_name():
    notes = Attachment("notes.md", "# Plan\nship it\n")
    code = Attachment("main.py", "print(1)")
    rendered = render_message("Review these.", [notes, code])
    assert rendered == "Review these.\n\nnotes.md\n```md\n# Plan\nship it\n```\n\nmain.py\n```py\nprint(1)\n```"
    assert render_message("", [code]) == "main.py\n```py\nprint(1)\n```"   # files alone: no blank line first


def test_a_fence_inside_the_file_cannot_close_its_block():
    readme = Attachment("README", "Run:\n```sh\nmake\n```\n````\n")
    rendered = render_attachment(readme)
    assert rendered.startswith("README\n`````\n") and rendered.endswith("\n`````")
    assert "\n" + "`" * 5 not in rendered[len("README\n`````"):-len("`````")]


def test_an_odd_suffix_gives_no_language():
    assert render_attachment(Attachment("data.some thing", "x")) == "data.some thing\n```\nx\n```"
    assert render_attachment(Attachment(".bashrc", "x")) == ".bashrc\n```\nx\n```"


def test_stored_attachments_read_back_and_size_in_bytes():
    stored = [{"name": "a.txt", "text": "é"}, "junk", {"name": "b.txt"}]
    assert attachments_of(stored) == (Attachment("a.txt", "é"), Attachment("b.txt", ""))
    assert attachments_of(None) == ()
    assert Attachment("a.txt", "é").size == 2 and Attachment("a", "é").to_dict() == {"name": "a", "text": "é"}
