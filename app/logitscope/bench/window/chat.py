"""`logitscope bench --chat-view`: does appending a token cost the same at token 10,000 as at 10?

Real steps (the demo model, 200 tokens) are appended to a chat answer in batches like the bridge
delivers them, each batch followed by a repaint; the cost per batch is compared near the start and
after 10,000 tokens.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

MARKS = (10, 1_000, 3_000, 10_000)


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from logitscope.host.client import EngineClient
    from logitscope.library.demo import fetch_demo
    from logitscope.protocol.api import DecodeOptions, GenerateRequest, LoadSettings
    from logitscope.protocol.sampler_settings import SamplerSettings
    from logitscope.protocol.trace import StepRecord
    from logitscope.session.conversation import Answer, Conversation, Turn
    from logitscope.ui.app import apply_theme, create_app
    from logitscope.ui.chat.chat_view import ChatView

    # the steps come from the engine process, as in the window (llama.cpp never loads in this process)
    engine = EngineClient()
    try:
        engine.load(str(fetch_demo(log=lambda _m: None)), LoadSettings(n_ctx=1024))
        request = GenerateRequest(prompt="Once upon a time", settings=SamplerSettings(seed=1),
                                  options=DecodeOptions(max_tokens=200))
        steps: list[StepRecord] = []
        engine.generate(request, on_step=steps.append)
        vocab = engine.vocab()
    finally:
        engine.close()

    app = create_app([])
    apply_theme(app, "light")
    results = {}
    for heatmap in (False, True):
        chat = ChatView()  # as in the window: the answer inside the scrolling chat pane
        chat.resize(800, 700)
        chat.set_vocab(vocab)
        chat.set_heatmap(heatmap)
        conversation = Conversation.of([Turn("Tell me a long story", answers=[Answer()])])
        chat.show_conversation(conversation)
        chat.show()
        view = chat.answers[0].view
        view.set_streaming(True)
        batch = 5  # ~100 tok/s delivered 20 times a second (bridge.REPAINT_INTERVAL_MS)
        costs: dict[int, list[float]] = {}
        n = 0
        while n < 10_050:
            chunk = [steps[(n + k) % len(steps)] for k in range(batch)]
            t0 = time.perf_counter()
            view.append_steps(chunk)
            app.processEvents()
            chat.viewport().repaint()
            cost = time.perf_counter() - t0
            n += batch
            for mark in MARKS:
                if mark <= n < mark + 100:
                    costs.setdefault(mark, []).append(cost)
        results[heatmap] = {mark: statistics.median(c) * 1000 for mark, c in sorted(costs.items())}
        chat.close()
    print("append + repaint of one batch of 2 tokens (median of 50), ms, by position in the answer:")
    print("             " + "".join(f"{f'token {m:,}':>14}" for m in MARKS) + "   ratio 10,000 / 10")
    for heatmap, row in results.items():
        cells = "".join(f"{row[m]:14.3f}" for m in MARKS)
        print(f"  heatmap {'on ' if heatmap else 'off'}{cells}   {row[10_000] / row[10]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
