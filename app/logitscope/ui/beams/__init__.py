"""The Beams view: beam search on a question, as the tree of hypotheses beside the greedy answer."""
