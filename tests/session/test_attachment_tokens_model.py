"""The real engine: the tokens counted for a message with attached files are the tokens the model reads when
the conversation sends it (one rendering of the files for both)."""

from __future__ import annotations

import pytest

from logitscope.protocol.api import GenerateRequest
from logitscope.protocol.attachments import Attachment, render_attachment
from logitscope.session.attachments import attachment_tokens, message_tokens
from logitscope.session.conversation import Answer, Conversation

pytestmark = pytest.mark.model
FILES = (Attachment("notes.md", "# Plan\n- ship it\n```sh\nmake\n```\n"), Attachment("main.py", "print('hi')\n"))


def test_the_count_of_a_message_with_files_is_what_the_engine_reads(client):
    conversation = Conversation(system="Be brief.")
    conversation.append_turn("Summarise these.", FILES)
    request = GenerateRequest(messages=conversation.messages_for(0), system=conversation.system)
    sent = client.prompt_tokens(request)
    assert message_tokens(client, "Summarise these.", FILES, "Be brief.") == len(sent)
    prompt = client.render_chat(conversation.messages_for(0), conversation.system)
    assert "Summarise these.\n\nnotes.md\n````md\n# Plan" in prompt and "main.py\n```py\nprint('hi')\n```" in prompt
    assert attachment_tokens(client, FILES[1]) == len(client.tokenize(render_attachment(FILES[1]), False, True))
    # later, as an earlier turn (a reloaded chat sends the same): the files are still in its message
    conversation.turns[0].answers.append(Answer(status="done"))
    conversation.append_turn("And then?")
    assert conversation.messages_for(1)[0] == request.messages[0]


def test_a_message_larger_than_the_context_is_counted_close_to_its_tokens(client):
    big = (Attachment("long.txt", "The quick brown fox jumps over the lazy dog. " * 300),)   # > 2048 tokens
    counted = message_tokens(client, "Read this.", big, None)
    conversation = Conversation()
    conversation.append_turn("Read this.", big)
    whole = client.tokenize(client.render_chat(conversation.messages_for(0)), True, True)
    assert counted > 2048 and abs(counted - len(whole)) <= 2, (counted, len(whole))
