"""The Throughput view: tokens per second against the batch size, measured on the loaded model."""
