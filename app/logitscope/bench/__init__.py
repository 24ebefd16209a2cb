"""Every benchmark, each behind `logitscope bench --...`: figures printed side by side in one run."""
