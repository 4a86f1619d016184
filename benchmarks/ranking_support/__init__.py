"""Parts of the ranking benchmark (``benchmarks/ranking.py``); see benchmarks/README.md."""
