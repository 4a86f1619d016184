import functools
import json
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor


def double(x):
    return 2 * x


def positive(x):
    return x > 0


def rank(x):
    return -x


def add(a, b):
    return a + b


def encode(obj):
    return str(obj)


class Bucket:
    def __init__(self):
        self.items = []


class Table:
    def weight(self, row):
        return len(row)

    def heaviest(self, rows):
        return max(rows, key=self.weight)

    def ordered(self, rows):
        rows = list(rows)
        rows.sort(key=self.weight)
        return rows


def sort(xs, key):
    return sorted(xs, key=key)


def job():
    return 1


doubled = list(map(double, [1, -2]))
kept = list(filter(positive, doubled))
ranked = sorted(kept, key=rank)
total = functools.reduce(add, ranked, 0)
add_one = functools.partial(add, 1)
add_one(2)
json.dumps({"t": Table()}, default=encode)
groups = defaultdict(Bucket)
groups["a"].items.append(1)
table = Table()
table.heaviest(["ab", "c"])
table.ordered(["ab", "c"])
sort([3, 1], rank)
with ThreadPoolExecutor(max_workers=1) as pool:
    pool.submit(job).result()
