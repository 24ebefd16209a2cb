"""The KL divergence between two models' next-token distributions, exactly as llama.cpp's
`llama-perplexity --kl-divergence` measures it (tools/perplexity/perplexity.cpp): its file of base log-probabilities,
its per-token numbers, its statistics block. Importable without llama.cpp; engine/kld.py computes the per-token
numbers, in the same float32 and float64 steps as the tool.

The file (`--kl-divergence-base FILE`, written by `score --save-logits`, read by `score --kl-base`): the bytes
"_logits_", n_ctx (uint32), n_vocab (int32), n_chunk (int32), the n_chunk x n_ctx token ids (int32) of the
text, then for each chunk the base model's distributions at the positions the chunk scores (n_ctx // 2 ..
n_ctx - 2), each as NV = 2 * ceil(n_vocab / 2) + 4 uint16: two float32 (scale, min_log_prob), then each token's
log-probability quantized, round((logprob - min_log_prob) / scale), 0 below max - 16 nats.

Per scored token (protocol/score.py's chunks, the second half of each): KLD = sum over the base distribution's
tokens within 16 nats of its best of p_base * (log p_base - log p_Q); Δp = p_Q(token) - p_base(token) of the
text's token; whether both models' top-1 tokens agree; both NLLs (the base's from the quantized file, as the
tool does).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.reading import require_regular

KLD_MAGIC = b"_logits_"
KLD_HEADER = struct.Struct("<8sIii")   # magic, n_ctx, n_vocab, n_chunk
MIN_STATISTICS = 100                   # llama-perplexity prints no statistics for fewer scored tokens
BASE_TOP_N = 5                         # the base's best tokens kept per scored token (read from the file)


def row_width(n_vocab: int) -> int:
    """uint16 values per scored token in the file."""
    return 2 * ((n_vocab + 1) // 2) + 4


def scored_per_chunk(n_ctx: int) -> int:
    return n_ctx - 1 - n_ctx // 2


def kld_file_bytes(n_ctx: int, n_vocab: int, n_chunk: int) -> int:
    return KLD_HEADER.size + 4 * n_ctx * n_chunk + 2 * n_chunk * scored_per_chunk(n_ctx) * row_width(n_vocab)


@dataclass(frozen=True)
class KldHeader:
    path: str
    n_ctx: int
    n_vocab: int
    n_chunk: int
    tokens: tuple[int, ...]     # n_chunk x n_ctx

    @property
    def data_offset(self) -> int:
        return KLD_HEADER.size + 4 * len(self.tokens)


def read_kld_header(path: str) -> KldHeader:
    """The header and token ids of a base log-probabilities file; one clear error for anything else, or for a
    file shorter than its header says (a cut-off copy)."""
    try:
        require_regular(Path(path))   # a pipe would be waited on
        size = Path(path).stat().st_size
        with open(path, "rb") as f:
            head = f.read(KLD_HEADER.size)
            if len(head) < KLD_HEADER.size or head[:8] != KLD_MAGIC:
                raise InvalidSettingsError("{path} is not a file of base log-probabilities (llama-perplexity's "
                                           "--kl-divergence-base format)", path=path)
            _magic, n_ctx, n_vocab, n_chunk = KLD_HEADER.unpack(head)
            if not (8 <= n_ctx <= 1 << 20 and 0 < n_vocab <= 1 << 22 and 0 < n_chunk <= 1 << 24):
                raise InvalidSettingsError("{path} has an absurd header (n_ctx {n_ctx}, n_vocab {n_vocab}, "
                                           "{n_chunk} chunks)", path=path, n_ctx=n_ctx, n_vocab=n_vocab,
                                           n_chunk=n_chunk)
            if size < kld_file_bytes(n_ctx, n_vocab, n_chunk):
                raise InvalidSettingsError("{path} is cut short: {size} bytes of the {need} its header announces",
                                           path=path, size=size, need=kld_file_bytes(n_ctx, n_vocab, n_chunk))
            tokens = np.frombuffer(f.read(4 * n_ctx * n_chunk), dtype="<i4")
    except OSError as exc:
        raise InvalidSettingsError("cannot read {path}: {reason}", path=path, reason=exc.strerror or str(exc)) from None
    return KldHeader(path, int(n_ctx), int(n_vocab), int(n_chunk), tuple(int(t) for t in tokens))


@dataclass
class KlTokens:
    """Per token of the scored text (index = token position; NaN / False where not scored)."""
    kld: np.ndarray          # float64, as llama.cpp sums it (its percentiles read the float32 of it)
    p_diff: np.ndarray       # float32: p_Q(token) - p_base(token)
    same_top: np.ndarray     # bool
    nll: np.ndarray          # float32, the compared model's
    nll_base: np.ndarray     # float32, from the base file
    scored: np.ndarray       # bool
    base_top_ids: np.ndarray        # [n, BASE_TOP_N] int32, from the file
    base_top_logprobs: np.ndarray   # float32

    @classmethod
    def empty(cls, n: int) -> KlTokens:
        return cls(np.full(n, np.nan), np.full(n, np.nan, dtype=np.float32), np.zeros(n, dtype=bool),
                   np.full(n, np.nan, dtype=np.float32), np.full(n, np.nan, dtype=np.float32), np.zeros(n, dtype=bool),
                   np.zeros((n, BASE_TOP_N), dtype=np.int32), np.zeros((n, BASE_TOP_N), dtype=np.float32))


def _mean_and_uncertainty(total: float, total2: float, count: int) -> tuple[float, float]:
    if count < 1:
        return 0.0, 0.0
    f = total / count
    df = total2 / count - f * f
    return f, (math.sqrt(df / (count - 1)) if df > 0 and count > 10 else 0.0)


def _covariance(a: float, b: float, ab: float, count: int) -> float:
    if count < 10:
        return 0.0
    return (ab / count - (a / count) * (b / count)) / (count - 1)


def _percentile(values: np.ndarray, fraction: float) -> float:
    """llama-perplexity's, in float32 as it computes it."""
    f = np.float32(fraction)
    if f <= 0:
        return float(values[0])
    if f >= 1:
        return float(values[-1])
    p = np.float32(f * np.float32(len(values) - 1))
    ip = int(p)
    p = np.float32(p - np.float32(ip))
    nxt = values[min(ip + 1, len(values) - 1)]
    return float(np.float32(np.float32(1) - p) * values[ip] + p * nxt)


def _median(values: np.ndarray) -> float:
    n = len(values)
    if n % 2 == 0:
        return float(np.float32(0.5) * np.float32(values[n // 2] + values[n // 2 - 1]))
    return float(values[n // 2])


@dataclass
class KldStats:
    """llama-perplexity's sums over the scored tokens, and its figures from them."""
    count: int
    sum_nll: float
    sum_nll2: float
    sum_nll_base: float
    sum_nll_base2: float
    sum_nll_nll_base: float
    sum_kld: float
    sum_kld2: float
    sum_p_diff: float
    sum_p_diff2: float
    sum_p_diff4: float
    n_same_top: int
    kld_sorted: np.ndarray      # float32, ascending
    p_diff_sorted: np.ndarray   # float32, ascending

    @classmethod
    def of(cls, kl: KlTokens, upto: int | None = None) -> KldStats:
        """Over the scored tokens (those before position `upto`, for a chunk's running line)."""
        mask = kl.scored if upto is None else kl.scored & (np.arange(len(kl.scored)) < upto)
        nll, base = kl.nll[mask], kl.nll_base[mask]
        kld, p_diff = kl.kld[mask], kl.p_diff[mask]
        p_diff2 = (p_diff * p_diff).astype(np.float64)   # a float product in the tool, kept as a double
        return cls(count=int(mask.sum()), sum_nll=float(nll.astype(np.float64).sum()),
                   sum_nll2=float((nll * nll).astype(np.float64).sum()),
                   sum_nll_base=float(base.astype(np.float64).sum()),
                   sum_nll_base2=float((base * base).astype(np.float64).sum()),
                   sum_nll_nll_base=float((nll * base).astype(np.float64).sum()),
                   sum_kld=float(kld.sum()), sum_kld2=float((kld * kld).sum()),
                   sum_p_diff=float(p_diff.astype(np.float64).sum()), sum_p_diff2=float(p_diff2.sum()),
                   sum_p_diff4=float((p_diff2 * p_diff2).sum()), n_same_top=int(kl.same_top[mask].sum()),
                   kld_sorted=np.sort(kld.astype(np.float32)), p_diff_sorted=np.sort(p_diff))

    # -- the figures --------------------------------------------------------------------------------------
    @property
    def log_ppl(self) -> tuple[float, float]:
        return _mean_and_uncertainty(self.sum_nll, self.sum_nll2, self.count)

    @property
    def log_ppl_base(self) -> tuple[float, float]:
        return _mean_and_uncertainty(self.sum_nll_base, self.sum_nll_base2, self.count)

    @property
    def log_ppl_cov(self) -> float:
        return _covariance(self.sum_nll, self.sum_nll_base, self.sum_nll_nll_base, self.count)

    @property
    def ppl(self) -> tuple[float, float]:
        value = math.exp(self.log_ppl[0])
        return value, value * self.log_ppl[1]

    @property
    def ppl_base(self) -> tuple[float, float]:
        value = math.exp(self.log_ppl_base[0])
        return value, value * self.log_ppl_base[1]

    @property
    def log_ppl_ratio(self) -> tuple[float, float]:
        (a, da), (b, db) = self.log_ppl, self.log_ppl_base
        return a - b, math.sqrt(max(da * da + db * db - 2.0 * self.log_ppl_cov, 0.0))

    @property
    def mean_kld(self) -> tuple[float, float]:
        return _mean_and_uncertainty(self.sum_kld, self.sum_kld2, self.count)

    @property
    def rms_p_diff(self) -> tuple[float, float]:
        mse, dmse = _mean_and_uncertainty(self.sum_p_diff2, self.sum_p_diff4, self.count)
        rms = math.sqrt(mse)
        return rms, (0.5 / rms * dmse if rms > 0 else 0.0)

    @property
    def same_top(self) -> tuple[float, float]:
        p = self.n_same_top / self.count if self.count else math.nan
        return p, (math.sqrt(p * (1 - p) / (self.count - 1)) if self.count > 1 else 0.0)

    def kld_percentile(self, fraction: float) -> float:
        return _percentile(self.kld_sorted, fraction)

    @property
    def kld_median(self) -> float:
        return _median(self.kld_sorted)

    # -- llama-perplexity's lines ------------------------------------------------------------------------------
    def chunk_line(self, chunk: int) -> str:
        """The running line the tool prints after each chunk."""
        ppl, dppl = self.ppl
        ratio, dratio = self.log_ppl_ratio
        kld, dkld = self.mean_kld
        rms, drms = self.rms_p_diff
        top, dtop = self.same_top
        return (f"{chunk:4d}    {ppl:9.4f} ± {dppl:9.4f}    {ratio:10.5f} ± {dratio:10.5f}    {kld:10.5f} ± "
                f"{dkld:10.5f}    {100 * rms:6.3f} ± {100 * drms:6.3f} %    {100 * top:6.3f} ± {100 * dtop:6.3f} %")

    def statistics_block(self) -> list[str]:
        """llama-perplexity's three statistics sections, line for line (empty below MIN_STATISTICS tokens)."""
        if self.count < MIN_STATISTICS:
            return []
        ppl, dppl = self.ppl
        base, dbase = self.ppl_base
        (_lp, dlp), (_lb, dlb) = self.log_ppl, self.log_ppl_base
        cov = self.log_ppl_cov
        cor = cov / (dlp * dlb) if dlp * dlb else math.nan
        ratio, dratio = self.log_ppl_ratio
        ppl_ratio = math.exp(ratio)
        ppl_cov = ppl * base * cov
        diff_unc = math.sqrt(max(dppl * dppl + dbase * dbase - 2.0 * ppl_cov, 0.0))
        kld, dkld = self.mean_kld
        lines = [
            "====== Perplexity statistics ======",
            f"Mean PPL(Q)                   : {ppl:10.6f} ± {dppl:10.6f}",
            f"Mean PPL(base)                : {base:10.6f} ± {dbase:10.6f}",
            f"Cor(ln(PPL(Q)), ln(PPL(base))): {100.0 * cor:6.2f}%",
            f"Mean ln(PPL(Q)/PPL(base))     : {ratio:10.6f} ± {dratio:10.6f}",
            f"Mean PPL(Q)/PPL(base)         : {ppl_ratio:10.6f} ± {ppl_ratio * dratio:10.6f}",
            f"Mean PPL(Q)-PPL(base)         : {ppl - base:10.6f} ± {diff_unc:10.6f}",
            "",
            "====== KL divergence statistics ======",
            f"Mean    KLD: {kld:10.6f} ± {dkld:10.6f}",
            f"Maximum KLD: {float(self.kld_sorted[-1]):10.6f}",
        ]
        for label, fraction in (("99.9%", 0.999), ("99.0%", 0.990), ("95.0%", 0.950), ("90.0%", 0.900)):
            lines.append(f"{label:<5}   KLD: {self.kld_percentile(fraction):10.6f}")
        lines.append(f"Median  KLD: {self.kld_median:10.6f}")
        for label, fraction in (("10.0%", 0.100), (" 5.0%", 0.050), (" 1.0%", 0.010), (" 0.1%", 0.001)):
            lines.append(f"{label}   KLD: {self.kld_percentile(fraction):10.6f}")
        lines += [f"Minimum KLD: {float(self.kld_sorted[0]):10.6f}", "", "====== Token probability statistics ======"]
        mean_dp, dmean_dp = _mean_and_uncertainty(self.sum_p_diff, self.sum_p_diff2, self.count)
        lines.append(f"Mean    Δp: {100.0 * mean_dp:6.3f} ± {100.0 * dmean_dp:5.3f} %")
        dp = self.p_diff_sorted
        lines.append(f"Maximum Δp: {100.0 * float(dp[-1]):6.3f}%")
        for label, fraction in (("99.9%", 0.999), ("99.0%", 0.990), ("95.0%", 0.950), ("90.0%", 0.900),
                                ("75.0%", 0.750)):
            lines.append(f"{label}   Δp: {100.0 * _percentile(dp, fraction):6.3f}%")
        lines.append(f"Median  Δp: {100.0 * _median(dp):6.3f}%")
        for label, fraction in (("25.0%", 0.250), ("10.0%", 0.100), (" 5.0%", 0.050), (" 1.0%", 0.010),
                                (" 0.1%", 0.001)):
            lines.append(f"{label}   Δp: {100.0 * _percentile(dp, fraction):6.3f}%")
        lines.append(f"Minimum Δp: {100.0 * float(dp[0]):6.3f}%")
        rms, drms = self.rms_p_diff
        top, dtop = self.same_top
        lines += [f"RMS Δp    : {100.0 * rms:6.3f} ± {100.0 * drms:5.3f} %",
                  f"Same top p: {100.0 * top:6.3f} ± {100.0 * dtop:5.3f} %"]
        return lines

    def to_json(self) -> dict[str, float | int]:
        kld, dkld = self.mean_kld
        rms, drms = self.rms_p_diff
        top, dtop = self.same_top
        ratio, dratio = self.log_ppl_ratio
        out: dict[str, float | int] = {
            "count": self.count, "ppl_q": self.ppl[0], "ppl_q_error": self.ppl[1], "ppl_base": self.ppl_base[0],
            "ppl_base_error": self.ppl_base[1], "ln_ppl_ratio": ratio, "ln_ppl_ratio_error": dratio,
            "mean_kld": kld, "mean_kld_error": dkld, "rms_p_diff": rms, "rms_p_diff_error": drms,
            "same_top_p": top, "same_top_p_error": dtop,
        }
        if self.count:
            out |= {"max_kld": float(self.kld_sorted[-1]), "median_kld": self.kld_median,
                    "kld_99_9": self.kld_percentile(0.999), "kld_99": self.kld_percentile(0.99),
                    "kld_95": self.kld_percentile(0.95), "kld_90": self.kld_percentile(0.90),
                    "kld_10": self.kld_percentile(0.10), "kld_5": self.kld_percentile(0.05),
                    "kld_1": self.kld_percentile(0.01), "min_kld": float(self.kld_sorted[0])}
        return out
