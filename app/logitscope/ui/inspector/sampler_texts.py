"""What the window calls each sampler setting, stage and section, and what it says they do (translated):
one place, used by the sampler controls, the waterfall and the distribution panel."""

from __future__ import annotations

from PySide6.QtCore import QObject


class SamplerTexts(QObject):
    def __init__(self) -> None:
        super().__init__()
        # setting -> (label, tooltip)
        self.fields: dict[str, tuple[str, str]] = {
            "temperature": (self.tr("Temperature"), self.tr("Divides the logits: below 1 sharpens the choice, above 1 flattens "
                                                  "it; 0 always takes the most likely token")),
            "dynatemp_range": (self.tr("Dynamic range (0 = off)"), self.tr("Dynamic temperature: the temperature moves within "
                                                                 "± this range, higher when the model is unsure "
                                                                 "(high entropy)")),
            "dynatemp_exponent": (self.tr("Dynamic exponent"), self.tr("How fast the dynamic temperature follows the entropy")),
            "top_k": (self.tr("Top-k (0 = off)"), self.tr("Keep only the k most likely tokens")),
            "top_p": (self.tr("Top-p (1 = off)"), self.tr("Keep the most likely tokens until their probabilities add up to p")),
            "min_p": (self.tr("Min-p (0 = off)"), self.tr("Keep tokens at least this fraction as likely as the best one")),
            "typical_p": (self.tr("Typical-p (1 = off)"), self.tr("Locally typical sampling: keep the tokens whose surprise is "
                                                        "closest to the average, up to this probability mass")),
            "top_n_sigma": (self.tr("Top-n-sigma (≤ 0 = off)"), self.tr("Keep tokens whose logit is within n standard deviations "
                                                              "of the best one")),
            "min_keep": (self.tr("Min keep"), self.tr("Top-p, min-p, typical-p and XTC always leave at least this many tokens "
                                            "(0: llama.cpp's default)")),
            "repeat_penalty": (self.tr("Repetition penalty"), self.tr("Makes tokens seen in the recent context less likely "
                                                            "(1 = off)")),
            "repeat_last_n": (self.tr("Penalty window (tokens)"), self.tr("How many recent tokens the penalties look at")),
            "frequency_penalty": (self.tr("Frequency penalty"), self.tr("Subtracted from a token's logit once per time it "
                                                              "appears in the window")),
            "presence_penalty": (self.tr("Presence penalty"), self.tr("Subtracted from the logit of every token that appears "
                                                            "in the window")),
            "dry_multiplier": (self.tr("DRY multiplier (0 = off)"), self.tr("DRY (don't repeat yourself): penalizes the token that "
                                                                  "would continue a passage already in the context; "
                                                                  "the penalty is multiplier × base^(length − allowed)")),
            "dry_base": (self.tr("DRY base"), self.tr("How fast the DRY penalty grows with the length of the repetition")),
            "dry_allowed_length": (self.tr("DRY allowed length"), self.tr("Repetitions up to this many tokens are not "
                                                                "penalized")),
            "dry_penalty_last_n": (self.tr("DRY window (−1 = all)"), self.tr("How many recent tokens DRY scans for repetitions "
                                                                   "(−1: the whole context, 0: off)")),
            "dry_sequence_breakers": (self.tr("DRY sequence breakers"), self.tr("A repetition never continues across these "
                                                                      "(comma-separated; \\n is a new line, \\, a "
                                                                      "comma, \\s a space)")),
            "xtc_probability": (self.tr("XTC probability (0 = off)"), self.tr("XTC (exclude top choices): how often it acts at a "
                                                                    "step")),
            "xtc_threshold": (self.tr("XTC threshold"), self.tr("When XTC acts, every token above this probability except the "
                                                      "least likely of them is removed (> 0.5 = off)")),
            "mirostat": (self.tr("Mirostat"), self.tr("Mirostat keeps the surprise of the text near a target by truncating "
                                            "adaptively; it replaces the chain (temperature, then Mirostat)")),
            "mirostat_tau": (self.tr("Target surprise τ"), self.tr("Mirostat's target surprise (bits): higher is more varied")),
            "mirostat_eta": (self.tr("Learning rate η"), self.tr("How fast Mirostat corrects its threshold μ after each token")),
        }
        # section -> (title, tooltip)
        self.sections: dict[str, tuple[str, str]] = {
            "temperature": (self.tr("Temperature"), self.tr("How sharp or flat the final distribution is")),
            "truncation": (self.tr("Truncation"), self.tr("Stages that remove unlikely tokens")),
            "repetition": (self.tr("Repetition: penalties and DRY"), self.tr("Stages that discourage repeating the context")),
            "xtc": (self.tr("XTC: exclude top choices"), self.tr("Sometimes removes the most likely tokens, for more varied "
                                                       "text")),
            "mirostat": (self.tr("Mirostat"), self.tr("An adaptive sampler that replaces the chain")),
            "bias": (self.tr("Logit bias"), self.tr("Make chosen tokens more or less likely, or ban them")),
            "constraint": (self.tr("Constrained output: grammar / JSON"), self.tr("Allow only text that fits a grammar or a "
                                                                       "JSON schema")),
            "order": (self.tr("Order of the chain"), self.tr("Which stages run, and in what order")),
            "generation": (self.tr("Generation"), self.tr("Seed, length and stop sequences")),
        }
        # stage (STAGE_NAMES) -> short label, as in the waterfall's axis
        self.stage_labels: dict[str, str] = {
            "penalties": self.tr("penalties"), "dry": "DRY", "top_n_sigma": self.tr("top-n-σ"), "top_k": "top-k",
            "typ_p": self.tr("typical"), "top_p": "top-p", "min_p": "min-p", "xtc": "XTC",
            "temperature": self.tr("temperature"), "mirostat": "Mirostat", "mirostat_v2": "Mirostat 2",
            "logit_bias": self.tr("logit bias"), "grammar": self.tr("grammar"),
        }
        self.stage_tips: dict[str, str] = {
            "penalties": self.fields["repeat_penalty"][1], "dry": self.fields["dry_multiplier"][1],
            "top_n_sigma": self.fields["top_n_sigma"][1], "top_k": self.fields["top_k"][1],
            "typ_p": self.fields["typical_p"][1], "top_p": self.fields["top_p"][1], "min_p": self.fields["min_p"][1],
            "xtc": self.fields["xtc_threshold"][1], "temperature": self.fields["temperature"][1],
        }
