"""What may be attached to a message (each refusal says why), and its tokens counted against the context."""

from __future__ import annotations

import os

import pytest

from logitscope.base import reading
from logitscope.base.errors import AttachmentError, ContextOverflowError
from logitscope.protocol.api import GenerateRequest
from logitscope.protocol.attachments import Attachment, render_message
from logitscope.session.attachments import (
    MAX_ATTACHMENT_BYTES,
    fit_problem,
    message_tokens,
    read_attachment,
)


def test_a_utf8_text_file_is_read_whole(tmp_path):
    path = tmp_path / "notes.md"
    path.write_bytes("\ufeff# Héllo\r\nworld\n".encode())
    assert read_attachment(path) == Attachment("notes.md", "# Héllo\nworld\n")


def test_refusals_say_why(tmp_path):
    (tmp_path / "binary.bin").write_bytes(b"GGUF\0\0\x01")
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (tmp_path / "big.txt").write_bytes(b"a" * (MAX_ATTACHMENT_BYTES + 1))
    (tmp_path / "just-right.txt").write_bytes(b"a" * MAX_ATTACHMENT_BYTES)
    cases = {
        "binary.bin": "binary.bin is a binary file (it has NUL bytes)",
        "latin1.txt": "latin1.txt is not UTF-8 text (byte 3 is not valid UTF-8)",
        "big.txt": "big.txt is 1.00 MiB: files of at most 1.00 MiB can be attached",
        "missing.txt": "missing.txt does not exist",
        "": f"{tmp_path.name} is a folder: attach a text file",
    }
    for name, message in cases.items():
        with pytest.raises(AttachmentError) as caught:
            read_attachment(tmp_path / name)
        assert str(caught.value).startswith(message), str(caught.value)
        assert caught.value.message.template != str(caught.value)   # a template with its parameters: translated
    assert len(read_attachment(tmp_path / "just-right.txt").text) == MAX_ATTACHMENT_BYTES


def test_an_unreadable_file_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "secret.txt"
    path.write_text("x")

    def refuse(file, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003 - os.open's signature
        raise PermissionError(13, "Permission denied", str(file))

    monkeypatch.setattr(reading.os, "open", refuse)   # as chmod 0 does (for anyone but root)
    with pytest.raises(AttachmentError, match="secret.txt cannot be read: Permission denied"):
        read_attachment(path)


def test_a_pipe_or_a_device_is_refused_unread(tmp_path):
    """Attaching a named pipe would wait for a writer forever, /dev/zero would be read without end."""
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(AttachmentError, match="pipe is a named pipe, not a file"):
        read_attachment(tmp_path / "pipe")
    with pytest.raises(AttachmentError, match="zero is a character device, not a file"):
        read_attachment("/dev/zero")


class ByteEngine:
    """A stand-in engine: one token per byte of a plain chat format; more than `n_ctx - 1` overflows."""

    def __init__(self, n_ctx: int) -> None:
        self.n_ctx = n_ctx
        self.requests: list[GenerateRequest] = []

    def prompt_tokens(self, request: GenerateRequest) -> list[int]:
        self.requests.append(request)
        text = (request.system or "") + "".join(f"<{m.role}>{m.content}</>" for m in request.messages or ())
        if len(text.encode()) > self.n_ctx - request.options.max_tokens:
            raise ContextOverflowError("the message is too long")
        return list(text.encode())

    def tokenize(self, text: str, add_special: bool = False, parse_special: bool = True) -> list[int]:
        return list(text.encode())


def test_the_count_is_the_prompt_of_the_message_with_its_files_alone():
    engine = ByteEngine(n_ctx=1000)
    files = [Attachment("a.txt", "x" * 50)]
    count = message_tokens(engine, "Hi", files, system="S")   # type: ignore[arg-type]
    assert count == len(("S<user>" + render_message("Hi", files) + "</>").encode())
    (request,) = engine.requests
    assert request.messages[0].content == render_message("Hi", files) and request.system == "S"
    big = [Attachment("b.txt", "y" * 5000)]   # beyond the whole context: its text and the template's tokens
    assert message_tokens(engine, "Hi", big, None) == len(b"<user></>") + len(render_message("Hi", big).encode())  # type: ignore[arg-type]


def test_a_message_fits_when_it_leaves_room_for_the_answer():
    assert fit_problem(1792, n_ctx=2048, max_tokens=256) is None
    problem = fit_problem(1793, n_ctx=2048, max_tokens=256)
    assert problem is not None and str(problem).startswith(
        "the message with its attachments needs 1793 tokens, but 1792 of the context's 2048 are left for it "
        "(256 are kept for the answer)")
    assert fit_problem(600, n_ctx=1024, max_tokens=4096) is not None   # at most half the context is kept
    assert fit_problem(512, n_ctx=1024, max_tokens=4096) is None
