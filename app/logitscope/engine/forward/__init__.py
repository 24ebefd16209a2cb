"""Inside the forward pass, on an inspection context of its own with a graph callback (never on the
generation context): the logit lens, the attention weights, and the ggml tensors they are read from."""
