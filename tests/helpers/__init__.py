"""What several test modules share (test modules import from here, never from each other; fixtures stay in
the conftests): running the CLI (cli), answers and stores (store), driving the window (window, score_dialog,
beams_view), the scripted engine and its recording (scripted_engine), test data paths (data), GGUF files
made or damaged for tests (gguf_corpus, small_ggufs, quantize), fake and real servers (fake_hub,
fake_server, real_server), llama.cpp's own samplers for comparison (llama_reference), the built bundle
(bundle, bundle_runs, pictures), the second test model (gemma), the import graph (imports), and the guard
that keeps llama.cpp out of the fast tier (llama_guard, child_guard/)."""
