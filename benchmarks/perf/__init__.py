"""The pieces of ``benchmarks/bench.py``: corpora, scripted pull request, runs, report."""
