"""The conversation tree the window shows (Qt-free): questions have versions like answers, and editing
or regenerating an earlier turn keeps the later turns in the branch they belong to."""

from __future__ import annotations

from logitscope.session.conversation import Answer, Conversation


def chat(*questions: str) -> Conversation:
    conversation = Conversation()
    for text in questions:
        turn = conversation.append_turn(text)
        turn.answers.append(Answer(status="done"))
    return conversation


def users(conversation: Conversation) -> list[str]:
    return [t.user for t in conversation.turns]


def test_editing_an_earlier_question_keeps_its_old_version_and_later_turns():
    conversation = chat("one", "two", "three")
    old_answer = conversation.turns[1].answer
    edited = conversation.add_question_version(1, "two, edited")
    assert users(conversation) == ["one", "two, edited"]          # the new branch ends at the edit
    assert conversation.question_versions(1) == (1, 2)            # shown as 2 / 2
    edited.answers.append(Answer(status="done"))
    conversation.switch_question(1, 0)                            # back to the old version
    assert users(conversation) == ["one", "two", "three"]
    assert conversation.turns[1].answer is old_answer
    conversation.switch_question(1, 1)
    assert users(conversation) == ["one", "two, edited"]


def test_regenerating_an_earlier_answer_keeps_the_turns_after_the_old_answer():
    conversation = chat("one", "two")
    turn = conversation.turns[0]
    turn.answers.append(Answer(status="done"))
    turn.active = 1
    assert users(conversation) == ["one"]
    conversation.switch_answer(0, 0)
    assert users(conversation) == ["one", "two"]


def test_the_model_sees_the_active_path_only():
    conversation = chat("one", "two")
    conversation.add_question_version(1, "deux")
    roles = [(m.role, m.content) for m in conversation.messages_for(1)]
    assert roles[-1] == ("user", "deux") and ("user", "two") not in roles


def test_a_first_question_has_versions_too():
    conversation = chat("one")
    conversation.add_question_version(0, "uno")
    assert conversation.question_versions(0) == (1, 2) and users(conversation) == ["uno"]
