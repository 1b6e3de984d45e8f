"""``python -m bench``: run the benchmarks and write BENCHMARKS.md."""

import sys

if __name__ == "__main__":
    from bench.run import main

    sys.exit(main(prog="python -m bench"))
