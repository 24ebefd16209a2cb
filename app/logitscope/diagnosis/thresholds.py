"""Every threshold of the diagnosis, in one place (docs/diagnosis.md lists them with their reasons).

They were set on real traces of the demo model (scripts/record_diagnosis_traces.py) and lean towards
saying nothing: a finding on a clean answer costs the user's trust, a missed one only a question.
"""

from __future__ import annotations

# -- repetition loop ---------------------------------------------------------------------------------
LOOP_MAX_PERIOD = 64         # longest repeated block looked for, in tokens
LOOP_MIN_REPEATS = 3         # the block appears at least this many times in a row
LOOP_MIN_TOKENS = 24         # and the repeating run covers at least this many tokens
LOOP_SURE_P = 0.85           # mean raw p of the run's last LOOP_MIN_TOKENS tokens that says "the model locked in"
LOOP_CHECK_STEPS = 64        # a fix is checked by replaying it over the loop's first this many steps
LOOP_FIX_DRY = 0.8           # the fix's DRY multiplier
LOOP_FIX_PENALTY_STEP = 0.15   # the fix's repeat penalty: the answer's (at least 1) plus this

# -- cut off -----------------------------------------------------------------------------------------
CUT_MAX_TOKENS_FACTOR = 2    # the fix doubles max tokens ...
CUT_MAX_TOKENS_CAP = 8192    # ... up to this
CUT_N_CTX_FACTOR = 2         # a full context: the fix doubles n_ctx

# -- low confidence / guessing ----------------------------------------------------------------------
GUESS_MAX_P = 0.35           # a name or number chosen with a raw probability below this ...
GUESS_RIVAL_P = 0.05         # ... while another name or number had at least this much ...
GUESS_MIN_ENTROPY = 1.0      # ... and the raw distribution was this spread out (nats)
GUESS_MIN_SLOTS = 2          # reported when the answer has at least this many such guesses
GUESS_FIX_TEMPERATURE = 0.0  # the fix: greedy (the model's best guess every time)
# a long-shot opening: the answer's first tokens drawn far down a flat distribution (a short answer's guess)
OPENING_TOKENS = 6           # the answer's first this many tokens are its opening
OPENING_MIN_RANK = 2         # an unlikely pick: at least two tokens were more likely ...
OPENING_MIN_ENTROPY = 2.0    # ... in a raw distribution this spread out (nats) ...
OPENING_ODDS = 10.0          # ... and the opening's picks together were this many times less likely than the
                             # model's first choices (the product of p(first) / p(picked))
OPENING_FIX_TEMPERATURE = 0.3  # the other fix of a guessed opening: cooler, not greedy (which may loop)

# -- sampling drove it off course -------------------------------------------------------------------
OFF_TOP_P = 0.5              # the model's first choice had at least this raw probability ...
OFF_MAX_P = 0.02             # ... and the sampler drew a token with less than this
OFF_MIN_RANK = 2             # ... ranked at least this far down (0 = first choice)
OFF_FIX_TEMPERATURE = 0.5    # the fix lowers the temperature to at most this ...
OFF_FIX_TOP_P = 0.9          # ... and top-p to at most this

# -- stop sequence / end of turn missed -------------------------------------------------------------
# Special tokens written out as text, and a new turn's header inside the answer: the model went past the
# end of its turn. Case-sensitive regular expressions over the answer's text.
SPECIAL_TOKEN_PATTERN = r"<\|[A-Za-z_]+\|>|</s>|<s>|<(?:start|end)_of_turn>"
TURN_HEADER_PATTERN = r"(?:^|\n)(?:User|Assistant|Human|### (?:Instruction|Response)):"

# -- slow --------------------------------------------------------------------------------------------
SLOW_MIN_TOKENS = 32         # a shorter answer's speed is mostly start-up noise: not judged, nor a reference
SLOW_FRACTION = 0.5          # slower than half of what this model reaches on this machine (no reference: no check)
SLOW_REFERENCE_MIN_ANSWERS = 3   # a reference from stored answers needs at least this many
FIX_KV_TYPE = "q8_0"         # the fix's KV cache type (with flash attention, which a quantized V needs)
QUANT_MIN_BPW_STEP = 0.25    # a "smaller quantization" of the same model has at least this many fewer bits per weight

# -- thinking (a reasoning model's block) ------------------------------------------------------------------
THINKING_BUDGET_FACTOR = 2   # a budget that cut the thinking short: the fix allows this many times as much
THINKING_MIN_BUDGET = 16     # a block that never ended: the fix's budget is 3/4 of what it used, at least this

# -- cost --------------------------------------------------------------------------------------------
BENCH_TOKENS = 4000          # `logitscope bench --diagnosis`: a trace this long ...
BENCH_BUDGET_MS = 50.0       # ... is diagnosed in less than this
