"""Everything that crosses the process boundary between the engine and its callers: requests, results,
the step record and its trace format, the sampler settings, the forward-pass, score, beam and KV-map
types, and the interface every engine offers (EngineLike). Plain data: no llama.cpp, no Qt."""
