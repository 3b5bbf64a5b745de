"""Static site generator for research-paper digests."""
