"""A head scan's ranking: the heads whose knock-out moves the chosen token most, either way (a user found the
head that most hurt the token, the darkest cell of the map, missing from a list of ten drops)."""

from __future__ import annotations

import numpy as np

from logitscope.protocol.causal import Distribution, HeadScan


def test_the_largest_effect_comes_first_whichever_way_it_goes():
    delta = np.array([[-0.5, 0.1, 2.0], [-1.0, 0.0, 0.3]])
    scan = HeadScan(chosen=5, mode="zero", base=Distribution(np.array([5, 7], np.int32), np.array([0.6, 0.4],
                    np.float32), float(np.log(0.6))), kl=np.abs(delta) / 10, delta_logprob=delta,
                    top1=np.array([[5, 5, 5], [7, 5, 5]], np.int32))
    ranked = scan.ranked()
    assert [(layer, head) for layer, head, *_ in ranked] == [(0, 2), (1, 0), (0, 0), (1, 2), (0, 1), (1, 1)]
    assert ranked[0][3] == 2.0 and ranked[1][3] == -1.0 and ranked[1][4]   # its top-1 changed
    scan.layers = (1, 1)
    assert [(layer, head) for layer, head, *_ in scan.ranked()] == [(1, 0), (1, 2), (1, 1)]
